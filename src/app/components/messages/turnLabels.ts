// The words of a turn's line: what its tools did and how long the agent thought.
import type { ActivityRow } from '../../../store/schema';
import { formatDuration } from './time';

function plural(n: number, one: string): string {
  return `${n} ${one}${n === 1 ? '' : 's'}`;
}

/** "Used 2 tools", or for a turn of commentary only "2 notes": what the counts alone say. */
function countsLabel(tools: number, notes: number): string {
  return tools === 0 ? plural(notes, 'note') : `Used ${plural(tools, 'tool')}`;
}

/** "Used 2 tools · 24 ms", "Used 1 tool · 1 failed", or for a turn of commentary only "2 notes". */
export function activityLabel(items: Pick<ActivityRow, 'kind' | 'state' | 'duration'>[]): string {
  const tools = items.filter((i) => i.kind === 'tool');
  const parts = [countsLabel(tools.length, items.length - tools.length)];
  if (tools.length === 0) return parts[0]!;
  const failed = tools.filter((t) => t.state === 'failed').length;
  if (failed) parts.push(`${failed} failed`);
  const timed = tools.filter((t) => t.duration !== undefined);
  if (timed.length) parts.push(formatDuration(timed.reduce((sum, t) => sum + t.duration!, 0)));
  return parts.join(' · ');
}

/**
 * "Thought for 2 s": how long the agent took before its first text, when this device saw it stream;
 * a reply that came whole (history, another device) has no such time.
 */
export function thoughtLabel(ms: number | undefined): string {
  if (ms === undefined) return 'Thought process';
  if (ms < 1000) return 'Thought for a moment';
  const s = Math.round(ms / 1000);
  return s < 60 ? `Thought for ${s} s` : `Thought for ${Math.floor(s / 60)} min ${s % 60} s`;
}
