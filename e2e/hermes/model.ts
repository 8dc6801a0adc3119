// A scripted OpenAI-compatible chat-completions server: the model behind the test Hermes. Hermes's own
// agent loop, tools, approval rules and SSE run for real; only the model's words are scripted, chosen
// by cue words in the newest user message:
//   [echo]           a terminal tool call running `echo iris-tool-ok`, then a reply quoting its output
//   [approve PATH]   a terminal call `rm -rf PATH && echo removed-ok` (Hermes sends it to approval)
//   [slow]           a long reply streamed slowly (for Stop, reload and a second device mid-run)
//   [fail]           the model answers 400 (a failure Hermes does not retry)
//   a text file      (its words inlined by the bridge as "[Content of NAME]:") a reply naming the file, its
//                    line count and its last line
//   anything else    a short reply that quotes the message and lists the conversation's earlier words
// Every streamed reply starts with a reasoning delta. Bound to 127.0.0.1 on a free port.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const SCRIPTED_MODEL_ID = 'iris-scripted-1';
const TOOL_OUTPUT = 'iris-tool-ok';

interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: unknown[];
}

export interface ScriptedModel {
  /** http://127.0.0.1:PORT/v1 */
  baseUrl: string;
  /** Every chat-completions request body, oldest first (tests read what Hermes sent). */
  requests: Array<{
    messages: ChatMessage[];
    stream: boolean;
    /** text pieces sent before the reply ended or Hermes hung up */ piecesSent: number;
  }>;
  close(): Promise<void>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        part && typeof part === 'object' && (part as { type?: unknown }).type === 'text'
          ? String((part as { text?: unknown }).text ?? '')
          : '',
      )
      .join(' ');
  }
  return '';
}

/** What the model says next: a tool call, or text (in pieces), given the conversation so far. */
type Move =
  | { kind: 'tool'; command: string; reasoning: string }
  | { kind: 'text'; pieces: string[]; reasoning: string; delayMs: number }
  | { kind: 'fail' };

function nextMove(messages: ChatMessage[]): Move {
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    if (messages[i].role === 'user') {
      lastUser = i;
      break;
    }
  }
  const userText = lastUser >= 0 ? textOf(messages[lastUser].content) : '';
  const after = messages.slice(lastUser + 1);
  const toolResult = after
    .filter((m) => m.role === 'tool')
    .map((m) => textOf(m.content))
    .pop();
  const images =
    lastUser >= 0 && Array.isArray(messages[lastUser].content)
      ? (messages[lastUser].content as Array<{ type?: string }>).filter((p) => p?.type === 'image_url').length
      : 0;

  if (/\[fail\]/i.test(userText)) return { kind: 'fail' };
  const approve = /\[approve ([^\]\s]+)\]/i.exec(userText);
  if (approve || /\[echo\]/i.test(userText)) {
    if (toolResult === undefined) {
      const command = approve ? `rm -rf ${approve[1]} && echo removed-ok` : `echo ${TOOL_OUTPUT}`;
      return { kind: 'tool', command, reasoning: `I should run \`${command}\` in the terminal.` };
    }
    return {
      kind: 'text',
      pieces: describeToolResult(toolResult),
      reasoning: 'The tool answered; I report what it said.',
      delayMs: 150,
    };
  }
  const file = /\[Content of ([^\]\n]+)\]:\n([\s\S]*?)(?:\n\n|$)/.exec(userText);
  if (file) {
    const lines = file[2]!.split('\n').filter((line) => line.trim() !== '');
    const last = oneLine(lines[lines.length - 1] ?? '', 120);
    return {
      kind: 'text',
      pieces: ['I read ', `${file[1]}: `, `${lines.length} lines, `, `the last «${last}».`],
      reasoning: 'A file came with the message; I say what is in it.',
      delayMs: 120,
    };
  }
  if (/\[slow\]/i.test(userText)) {
    const pieces = Array.from({ length: 60 }, (_, i) => `Slow line ${i + 1}.\n`);
    return { kind: 'text', pieces, reasoning: 'A long answer, one line at a time.', delayMs: 150 };
  }
  const earlier = messages
    .slice(0, Math.max(0, lastUser))
    .filter((m) => m.role === 'user')
    .map((m) => oneLine(textOf(m.content), 60));
  const memory = earlier.length
    ? `Earlier you said: ${earlier.map((t) => `«${t}»`).join(', ')}.`
    : 'This is the start of our conversation.';
  const seen = images ? ` I see ${images} image${images === 1 ? '' : 's'}.` : '';
  return {
    kind: 'text',
    pieces: ['Hello ', 'from the ', 'scripted model. ', `You said: «${oneLine(userText, 200)}».${seen} `, memory],
    reasoning: `The person wrote ${userText.length} characters; I answer briefly.`,
    // Slow enough that a person (and a test) sees the reply grow.
    delayMs: 120,
  };
}

/** Hermes's terminal tool answers JSON {output, exit_code, error, status?}: say what happened. */
function describeToolResult(result: string): string[] {
  let parsed: { output?: unknown; error?: unknown; status?: unknown } = {};
  try {
    parsed = JSON.parse(result) as typeof parsed;
  } catch {
    return ['The tool said: ', oneLine(result, 300)];
  }
  if (parsed.status === 'blocked' || (typeof parsed.error === 'string' && parsed.error.startsWith('BLOCKED'))) {
    return ['The command ', 'was not run: ', oneLine(String(parsed.error ?? 'blocked'), 80)];
  }
  return ['The command ', 'printed: ', oneLine(String(parsed.output ?? ''), 300)];
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

function chunk(id: string, delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: SCRIPTED_MODEL_ID, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function stream(
  res: ServerResponse,
  move: Exclude<Move, { kind: 'fail' }>,
  closed: () => boolean,
  sent: () => void,
): Promise<void> {
  const id = `chatcmpl-${Math.random().toString(36).slice(2)}`;
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
  res.write(chunk(id, { role: 'assistant', content: '', reasoning_content: move.reasoning }));
  if (move.kind === 'tool') {
    const args = JSON.stringify({ command: move.command });
    res.write(
      chunk(id, {
        tool_calls: [
          { index: 0, id: `call_${id.slice(-8)}`, type: 'function', function: { name: 'terminal', arguments: args } },
        ],
      }),
    );
    res.write(chunk(id, {}, 'tool_calls'));
  } else {
    for (const piece of move.pieces) {
      if (closed()) return;
      res.write(chunk(id, { content: piece }));
      sent();
      await sleep(move.delayMs);
    }
    res.write(chunk(id, {}, 'stop'));
  }
  res.write(
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: SCRIPTED_MODEL_ID, choices: [], usage: { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 } })}\n\n`,
  );
  res.end('data: [DONE]\n\n');
}

function complete(res: ServerResponse, text: string): void {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(
    JSON.stringify({
      id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: SCRIPTED_MODEL_ID,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
    }),
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

export async function startScriptedModel(): Promise<ScriptedModel> {
  const requests: ScriptedModel['requests'] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = req.url ?? '';
      if (req.method === 'GET' && /\/models\/?$/.test(url)) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            object: 'list',
            data: [{ id: SCRIPTED_MODEL_ID, object: 'model', owned_by: 'iris-tests', context_length: 131072 }],
          }),
        );
        return;
      }
      if (req.method !== 'POST' || !/\/chat\/completions\/?$/.test(url)) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${url}` } }));
        return;
      }
      let body: { messages?: ChatMessage[]; stream?: boolean };
      try {
        body = JSON.parse(await readBody(req));
      } catch {
        res.writeHead(400).end();
        return;
      }
      const messages = Array.isArray(body.messages) ? body.messages : [];
      const record = { messages, stream: body.stream === true, piecesSent: 0 };
      requests.push(record);
      const move = nextMove(messages);
      if (move.kind === 'fail') {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            error: {
              message: 'The scripted model failed on cue.',
              type: 'invalid_request_error',
              code: 'scripted_failure',
            },
          }),
        );
        return;
      }
      // Side requests (titles, summaries) are not streamed: a short fixed answer.
      if (body.stream !== true) return complete(res, move.kind === 'text' ? move.pieces.join('') : 'Scripted title');
      let closed = false;
      res.on('close', () => (closed = true));
      await stream(
        res,
        move,
        () => closed,
        () => record.piecesSent++,
      );
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
