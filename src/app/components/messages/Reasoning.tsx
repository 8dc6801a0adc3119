import { Markdown } from './Markdown';

/** The model's reasoning, opened from its line above the answer. */
export function ReasoningBody(props: { id: string; text: string; final: boolean }) {
  return (
    <div id={props.id} class="reasoning">
      <Markdown text={props.text} final={props.final} />
    </div>
  );
}
