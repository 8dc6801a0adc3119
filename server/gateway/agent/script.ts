// What the demo agent says: deterministic replies built from the user's text, as a list of stream
// steps, so tests can assert exact text. Replies carry a little Markdown and a code block.
import type { MediaRef } from '../../../src/protocol';
import { COMMANDS } from './commands';

/** The demo agent's name: how `status.session.agent` names it, and who its notifications come from. */
export const DEMO_AGENT_NAME = 'Iris demo agent';

export type Step =
  | { kind: 'text'; append: string }
  /** Reasoning streamed before the text (the model thinks aloud first), as `/think` shows. */
  | { kind: 'reasoning'; append: string }
  | { kind: 'commentary'; text: string }
  | { kind: 'tool.start'; index: number; name: string; preview: string; args: Record<string, unknown> }
  | { kind: 'tool.progress'; index: number; name: string; note: string }
  | { kind: 'tool.end'; index: number; name: string; ok: boolean; duration: number; output_preview: string };

export interface Script {
  steps: Step[];
  reasoning: string;
  /** Seed of a generated image offered after the reply. */
  image?: string;
}

/** The user's text on one line, bounded, for quoting back. */
export function quote(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
}

export function wordCount(text: string): number {
  return text.trim() === '' ? 0 : text.trim().split(/\s+/).length;
}

function tool(
  index: number,
  name: string,
  args: Record<string, unknown>,
  preview: string,
  note: string,
  output: string,
): Step[] {
  return [
    { kind: 'tool.start', index, name, preview, args },
    { kind: 'tool.progress', index, name, note },
    { kind: 'tool.end', index, name, ok: true, duration: 0.012, output_preview: output },
  ];
}

/**
 * The ordinary reply. For text T (quoted as Q) the final text is:
 *   **Echo:** Q\n\nYour message has **W** words and **C** characters.\n\n```text\nQ\n```\n\n_— Iris demo agent_
 */
export function replyScript(text: string, media: MediaRef[] = []): Script {
  const q = quote(text);
  const words = wordCount(text);
  const chars = [...text].length;
  const steps: Step[] = [];
  if (media.length > 0) {
    const names = media.map((m) => `${m.filename} (${m.kind}, ${m.size} bytes)`).join(', ');
    steps.push({ kind: 'text', append: `**Received:** ${names}\n\n` });
  }
  if (q !== '') steps.push({ kind: 'text', append: `**Echo:** ${q}\n\n` });
  steps.push({ kind: 'commentary', text: 'Counting the words first.' });
  steps.push(
    ...tool(
      0,
      'word_count',
      { text: q },
      `word_count("${q.slice(0, 40)}")`,
      'counting',
      `${words} words, ${chars} characters`,
    ),
  );
  steps.push({ kind: 'text', append: `Your message has **${words}** words and **${chars}** characters.\n\n` });
  // A second tool, so every ordinary turn shows how the app lays out several tool cards.
  steps.push({ kind: 'commentary', text: 'Formatting it as a code block.' });
  steps.push(
    ...tool(
      1,
      'format_code',
      { language: 'text' },
      'format_code(language="text")',
      'formatting',
      `${[...q].length} characters in a text block`,
    ),
  );
  if (q !== '') steps.push({ kind: 'text', append: '```text\n' + q + '\n```\n\n' });
  steps.push({ kind: 'text', append: '_— Iris demo agent_' });
  const image = media.find((m) => m.kind === 'image');
  return {
    steps,
    reasoning: `The user wrote ${words} words; echo them, count them, and show them in a code block.`,
    ...(image ? { image: image.media_id } : {}),
  };
}

export function imageScript(prompt: string): Script {
  return {
    steps: [
      { kind: 'commentary', text: 'Drawing a picture.' },
      ...tool(
        0,
        'generate_image',
        { prompt: quote(prompt) || 'a gradient' },
        'generate_image(64×64)',
        'rendering',
        'image/png, 64×64',
      ),
      { kind: 'text', append: 'Here is an image I generated for you: a **64×64** gradient.' },
    ],
    reasoning: 'The user asked for an image; generate a small PNG and offer it.',
    image: prompt || 'image',
  };
}

export function helpScript(): Script {
  const lines = COMMANDS.map((c) => `- \`/${c.name}${c.args_hint ? ' ' + c.args_hint : ''}\` — ${c.description}`);
  return {
    steps: [
      { kind: 'text', append: '**Demo commands**\n\n' },
      { kind: 'text', append: lines.join('\n') },
    ],
    reasoning: 'List the demo commands.',
  };
}

/**
 * `/think <text>`: the ordinary reply, after its reasoning has streamed in a few updates first (as a
 * reasoning model does), so the app's live "Thinking…" line can be seen and tested.
 */
export function thinkScript(text: string): Script {
  const reply = replyScript(text);
  const parts = ['Reading the question. ', 'Counting its words and characters. ', 'Then echoing it in a code block.'];
  return {
    steps: [...parts.map((append): Step => ({ kind: 'reasoning', append })), ...reply.steps],
    reasoning: parts.join(''),
  };
}

/** A long reply: time enough to press stop or steer. */
export function longScript(lines = 40): Script {
  const steps: Step[] = [{ kind: 'text', append: '**A long answer**\n\n' }];
  for (let i = 1; i <= lines; i++) {
    steps.push({ kind: 'text', append: `${i}. Line ${i} of a long answer.\n` });
    if (i === 10) steps.push(...tool(0, 'think', { depth: 3 }, 'think(depth=3)', 'still thinking', 'done'));
  }
  return { steps, reasoning: 'Write a long numbered list.' };
}

/** `updates` message.update frames, with a tool every 500 updates (for benchmarks). */
export function streamScript(updates: number): Script {
  const n = Math.max(1, Math.min(20_000, Math.floor(updates) || 1));
  const steps: Step[] = [];
  let toolIndex = 0;
  for (let i = 1; i <= n; i++) {
    steps.push({ kind: 'text', append: `w${i} ` });
    if (i % 500 === 0)
      steps.push(...tool(toolIndex++, 'bench_tool', { at: i }, `bench_tool(${i})`, `at ${i}`, `ok ${i}`));
  }
  return { steps, reasoning: `Stream ${n} updates.` };
}

/** One line of the generated file (about 60 characters). */
export function fileLine(i: number): string {
  return `export const value${i} = compute(${i}, "item-${i}"); // line ${i} of the file`;
}

/** A reply that is a whole file: a TypeScript block of `lines` lines, streamed as `updates` updates (benchmarks). */
export function fileScript(lines: number, updates: number): Script {
  const n = Math.max(1, Math.min(20_000, Math.floor(lines) || 1));
  const body = Array.from({ length: n }, (_, i) => fileLine(i + 1)).join('\n');
  const text = `Here is \`big.ts\`, ${n} line${n === 1 ? '' : 's'}:\n\n\`\`\`ts\n${body}\n\`\`\`\n\n_— Iris demo agent_`;
  const parts = Math.max(1, Math.min(20_000, Math.floor(updates) || 1, text.length));
  const steps: Step[] = [];
  for (let i = 0; i < parts; i++) {
    steps.push({
      kind: 'text',
      append: text.slice(Math.floor((i * text.length) / parts), Math.floor(((i + 1) * text.length) / parts)),
    });
  }
  return { steps, reasoning: `Write a file of ${n} lines.` };
}

export function steerText(steer: string): string {
  return `\n\n> **Steer:** ${quote(steer, 200)}\n\nUnderstood — adjusting to "${quote(steer, 200)}".\n\n`;
}
