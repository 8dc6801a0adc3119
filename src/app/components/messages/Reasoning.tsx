import { Markdown } from './Markdown';

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

/** The model's reasoning, opened from its line above the answer. */
export function ReasoningBody(props: { id: string; text: string; final: boolean }) {
  return (
    <div id={props.id} class="reasoning">
      <Markdown text={props.text} final={props.final} />
    </div>
  );
}
