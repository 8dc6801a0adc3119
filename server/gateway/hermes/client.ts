// HTTP to a Hermes API server (hermes-agent's `API_SERVER_ENABLED`): Bearer auth, JSON bodies, the
// SSE event stream of a run. Every failure becomes a HermesError whose message is one sentence a
// person can act on; the key is never part of a message or a log line.
import { parseHermesEvent, type HermesEvent } from './events';
import { SseParser } from './sse';

export type HermesProblem = 'unreachable' | 'unauthorized' | 'too_old' | 'http' | 'protocol';

export class HermesError extends Error {
  constructor(
    readonly problem: HermesProblem,
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface RunStatus {
  status: string;
  output?: string;
  error?: string;
  usage?: { output_tokens?: number };
  session_id?: string;
}

export interface SessionMessage {
  /** Hermes's row id of the message (stable: imported history is keyed by it). */
  id?: number;
  role: string;
  content: string;
  reasoning?: string;
  tool_name?: string;
  /** A tool result's call (role `tool`). */
  tool_call_id?: string;
  /** An assistant step's calls: their ids, tools and arguments (a JSON text, as the model wrote it). */
  tool_calls?: SessionToolCall[];
  /** Epoch seconds, as Hermes keeps them. */
  timestamp?: number;
}

export interface SessionToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** An assistant row's `tool_calls` (OpenAI's shape: {id, function: {name, arguments}}), the well-formed ones. */
function sessionToolCalls(value: unknown): SessionToolCall[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, 200).flatMap((call): SessionToolCall[] => {
    if (typeof call !== 'object' || call === null) return [];
    const { id, function: fn } = call as { id?: unknown; function?: { name?: unknown; arguments?: unknown } };
    if (typeof id !== 'string' || typeof fn !== 'object' || fn === null || typeof fn.name !== 'string') return [];
    return [{ id, name: fn.name, arguments: typeof fn.arguments === 'string' ? fn.arguments.slice(0, 10_000) : '' }];
  });
}

/** One of Hermes's sessions, as `/api/sessions` lists them. */
interface SessionSummary {
  id: string;
  title?: string;
  source?: string;
  messageCount?: number;
  /** Epoch seconds of the newest activity (or the start). */
  lastActive?: number;
  preview?: string;
}

export interface HermesClientOptions {
  /** http://127.0.0.1:8642 (no trailing path). */
  url: string;
  key?: string;
  /** Per-request timeout for the short calls (not the event stream). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;

export class HermesClient {
  readonly url: string;
  private readonly key: string | undefined;
  private readonly timeoutMs: number;

  constructor(opts: HermesClientOptions) {
    this.url = opts.url.replace(/\/+$/, '');
    this.key = opts.key;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** `GET /health` (no auth): the version. */
  async health(): Promise<{ version?: string }> {
    const body = await this.json('GET', '/health', undefined, { auth: false });
    return { version: typeof body.version === 'string' ? body.version.slice(0, 40) : undefined };
  }

  /** `GET /v1/capabilities`: the feature flags (absent on versions without it: too old). */
  async capabilities(): Promise<Record<string, unknown>> {
    const body = await this.json('GET', '/v1/capabilities');
    return typeof body.features === 'object' && body.features !== null
      ? (body.features as Record<string, unknown>)
      : {};
  }

  /** `GET /v1/models`: the model ids the API server offers. */
  async models(): Promise<string[]> {
    const body = await this.json('GET', '/v1/models');
    const data = Array.isArray(body.data) ? body.data : [];
    return data
      .map((m) => (typeof m === 'object' && m !== null ? (m as { id?: unknown }).id : undefined))
      .filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 200)
      .slice(0, 100);
  }

  /** `POST /v1/runs`: 202 with a run id. */
  async startRun(body: Record<string, unknown>, idempotencyKey?: string): Promise<string> {
    const res = await this.json(
      'POST',
      '/v1/runs',
      body,
      idempotencyKey ? { headers: { 'Idempotency-Key': idempotencyKey } } : {},
    );
    const runId = typeof res.run_id === 'string' && /^[\w.-]{1,200}$/.test(res.run_id) ? res.run_id : undefined;
    if (!runId) throw new HermesError('protocol', 'Hermes accepted the run but sent no run id.');
    return runId;
  }

  async getRun(runId: string): Promise<RunStatus | undefined> {
    try {
      const body = await this.json('GET', `/v1/runs/${encodeURIComponent(runId)}`);
      const usage =
        typeof body.usage === 'object' && body.usage !== null ? (body.usage as { output_tokens?: number }) : undefined;
      return {
        status: typeof body.status === 'string' ? body.status : 'unknown',
        ...(typeof body.output === 'string' ? { output: body.output } : {}),
        ...(typeof body.error === 'string' ? { error: body.error.slice(0, 2000) } : {}),
        ...(usage ? { usage } : {}),
        ...(typeof body.session_id === 'string' ? { session_id: body.session_id } : {}),
      };
    } catch (err) {
      if (err instanceof HermesError && err.status === 404) return undefined;
      throw err;
    }
  }

  async stop(runId: string): Promise<void> {
    await this.json('POST', `/v1/runs/${encodeURIComponent(runId)}/stop`, {});
  }

  async approve(runId: string, choice: string): Promise<void> {
    await this.json('POST', `/v1/runs/${encodeURIComponent(runId)}/approval`, { choice });
  }

  /** The messages Hermes keeps for a session (`/api/sessions/{id}/messages`), oldest first. */
  async sessionMessages(sessionId: string): Promise<SessionMessage[]> {
    const body = await this.json('GET', `/api/sessions/${encodeURIComponent(sessionId)}/messages`);
    const data = Array.isArray(body.data) ? body.data : [];
    return data.flatMap((m): SessionMessage[] => {
      if (typeof m !== 'object' || m === null) return [];
      const o = m as Record<string, unknown>;
      if (typeof o.role !== 'string') return [];
      return [
        {
          ...(typeof o.id === 'number' && Number.isSafeInteger(o.id) ? { id: o.id } : {}),
          role: o.role,
          content: typeof o.content === 'string' ? o.content : '',
          ...(typeof o.timestamp === 'number' && Number.isFinite(o.timestamp) ? { timestamp: o.timestamp } : {}),
          ...(typeof o.reasoning === 'string' ? { reasoning: o.reasoning.slice(0, 50_000) } : {}),
          ...(typeof o.tool_name === 'string' ? { tool_name: o.tool_name } : {}),
          ...(typeof o.tool_call_id === 'string' ? { tool_call_id: o.tool_call_id } : {}),
          ...(Array.isArray(o.tool_calls) ? { tool_calls: sessionToolCalls(o.tool_calls) } : {}),
        },
      ];
    });
  }

  /** Hermes's sessions, the most recently active first (`/api/sessions`). */
  async sessions(limit = 20): Promise<SessionSummary[]> {
    const body = await this.json('GET', `/api/sessions?limit=${limit}`);
    const data = Array.isArray(body.data) ? body.data : [];
    const text = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : undefined);
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
    return data.flatMap((s): SessionSummary[] => {
      if (typeof s !== 'object' || s === null) return [];
      const o = s as Record<string, unknown>;
      const id = text(o.id, 256);
      if (!id) return [];
      const title = text(o.title, 200);
      const source = text(o.source, 40);
      const messageCount = num(o.message_count);
      const lastActive = num(o.last_active) ?? num(o.started_at);
      const preview = text(o.preview, 200);
      return [
        {
          id,
          ...(title ? { title } : {}),
          ...(source ? { source } : {}),
          ...(messageCount !== undefined ? { messageCount } : {}),
          ...(lastActive !== undefined ? { lastActive } : {}),
          ...(preview ? { preview } : {}),
        },
      ];
    });
  }

  /** The model a session ran with (`/api/sessions/{id}`). */
  async sessionModel(sessionId: string): Promise<string | undefined> {
    const body = await this.json('GET', `/api/sessions/${encodeURIComponent(sessionId)}`);
    const session =
      typeof body.session === 'object' && body.session !== null ? (body.session as Record<string, unknown>) : body;
    return typeof session.model === 'string' && session.model.length <= 200 ? session.model : undefined;
  }

  /**
   * The run's events, in order, until the stream ends. Resolves normally when Hermes closes the stream
   * (with or without a terminal event: the caller checks); rejects when the connection fails.
   */
  async events(runId: string, onEvent: (ev: HermesEvent) => void, signal: AbortSignal): Promise<void> {
    let res: Response;
    try {
      res = await fetch(`${this.url}/v1/runs/${encodeURIComponent(runId)}/events`, {
        headers: this.headers(true, { Accept: 'text/event-stream' }),
        signal,
      });
    } catch (err) {
      throw this.networkError(err);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      throw this.statusError(res.status, `/v1/runs/{id}/events`);
    }
    if (!res.body) return;
    const parser = new SseParser();
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const ev of parser.push(value)) onEvent(parseHermesEvent(ev.data));
      }
    } catch (err) {
      throw this.networkError(err);
    } finally {
      reader.releaseLock();
    }
  }

  private headers(auth: boolean, extra: Record<string, string> = {}): Record<string, string> {
    return { ...(auth && this.key ? { Authorization: `Bearer ${this.key}` } : {}), ...extra };
  }

  private async json(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    opts: { auth?: boolean; headers?: Record<string, string> } = {},
  ): Promise<Record<string, unknown>> {
    let res: Response;
    try {
      res = await fetch(`${this.url}${path}`, {
        method,
        headers: this.headers(opts.auth !== false, {
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...opts.headers,
        }),
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      throw this.networkError(err);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) throw this.statusError(res.status, path.replace(/\/run_[\w.-]+/, '/{id}'), text);
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        return parsed as Record<string, unknown>;
    } catch {
      // fall through
    }
    throw new HermesError('protocol', `Hermes answered ${path} with something that is not a JSON object.`);
  }

  private networkError(err: unknown): HermesError {
    const e = err as { name?: string; cause?: { code?: string }; code?: string };
    if (e.name === 'AbortError') return new HermesError('unreachable', 'The connection to Hermes was closed.');
    if (e.name === 'TimeoutError')
      return new HermesError('unreachable', `Hermes at ${this.url} did not answer in time.`);
    const code = e.cause?.code ?? e.code;
    return new HermesError('unreachable', `Hermes at ${this.url} is not reachable${code ? ` (${code})` : ''}.`);
  }

  private statusError(status: number, path: string, body = ''): HermesError {
    if (status === 401 || status === 403)
      return new HermesError(
        'unauthorized',
        `Hermes refused the API key (HTTP ${status}). The key given (HERMES_API_KEY or --hermes-key-file) must be its API_SERVER_KEY.`,
        status,
      );
    const detail = errorText(body);
    if (status === 404 && !/run_not_found|session_not_found|not found: (run|session)/i.test(body)) {
      return new HermesError(
        'too_old',
        `This Hermes has no ${path} endpoint; it is too old for Iris Web (tested with hermes-agent 0.19.0).`,
        status,
      );
    }
    return new HermesError('http', `Hermes answered HTTP ${status} to ${path}${detail ? `: ${detail}` : ''}.`, status);
  }
}

/** The message of an OpenAI-style error body, bounded. */
function errorText(body: string): string {
  try {
    const o = JSON.parse(body) as { error?: { message?: unknown } };
    if (typeof o.error?.message === 'string') return o.error.message.slice(0, 300);
  } catch {
    // not JSON
  }
  return '';
}
