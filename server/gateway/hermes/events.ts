// The events of a Hermes run (`GET /v1/runs/{id}/events`), checked field by field: Hermes is
// untrusted input. Names and fields as hermes-agent 0.19.0 emits them (gateway/platforms/api_server.py);
// unknown events are kept as `unknown` so the bridge can ignore them without failing.
export type HermesEvent =
  | { event: 'message.delta'; delta: string }
  | { event: 'reasoning.available'; text: string }
  | { event: 'tool.started'; tool: string; preview: string }
  | { event: 'tool.completed'; tool: string; duration?: number; error: boolean }
  | { event: 'approval.request'; command: string; description: string; choices: string[] }
  | { event: 'approval.responded'; choice: string }
  | {
      event: 'run.completed';
      output: string;
      usage?: { input_tokens?: number; output_tokens?: number; total_tokens?: number };
    }
  | { event: 'run.failed'; error: string }
  | { event: 'run.cancelled' }
  | { event: 'unknown'; name: string }
  | { event: 'malformed'; raw: string };

const MAX_FIELD = 200_000;

const str = (v: unknown, max = MAX_FIELD): string => (typeof v === 'string' ? v.slice(0, max) : '');
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);

const APPROVAL_CHOICES = ['once', 'session', 'always', 'deny'] as const;

export function parseHermesEvent(data: string): HermesEvent {
  let obj: unknown;
  try {
    obj = JSON.parse(data);
  } catch {
    return { event: 'malformed', raw: data.slice(0, 200) };
  }
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj))
    return { event: 'malformed', raw: data.slice(0, 200) };
  const o = obj as Record<string, unknown>;
  const name = typeof o.event === 'string' ? o.event : '';
  switch (name) {
    case 'message.delta':
      return { event: name, delta: str(o.delta) };
    case 'reasoning.available':
      return { event: name, text: str(o.text) };
    case 'tool.started':
      return { event: name, tool: str(o.tool, 200) || 'tool', preview: str(o.preview, 2000) };
    case 'tool.completed': {
      const duration = num(o.duration);
      return {
        event: name,
        tool: str(o.tool, 200) || 'tool',
        ...(duration !== undefined ? { duration } : {}),
        error: o.error === true,
      };
    }
    case 'approval.request': {
      const offered = Array.isArray(o.choices) ? o.choices.filter((c): c is string => typeof c === 'string') : [];
      const choices = APPROVAL_CHOICES.filter((c) => offered.includes(c));
      return {
        event: name,
        command: str(o.command, 4000),
        description: str(o.description, 1000),
        choices: choices.length ? choices : ['once', 'deny'],
      };
    }
    case 'approval.responded':
      return { event: name, choice: str(o.choice, 20) };
    case 'run.completed': {
      const u = typeof o.usage === 'object' && o.usage !== null ? (o.usage as Record<string, unknown>) : undefined;
      const usage = u
        ? { input_tokens: num(u.input_tokens), output_tokens: num(u.output_tokens), total_tokens: num(u.total_tokens) }
        : undefined;
      return { event: name, output: str(o.output), ...(usage ? { usage } : {}) };
    }
    case 'run.failed':
      return { event: name, error: str(o.error, 2000) || 'the run failed' };
    case 'run.cancelled':
      return { event: name };
    default:
      return name ? { event: 'unknown', name: name.slice(0, 100) } : { event: 'malformed', raw: data.slice(0, 200) };
  }
}
