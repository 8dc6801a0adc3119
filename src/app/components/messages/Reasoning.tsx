import { Markdown } from './Markdown';
import { textDirection } from '../../../lib/textDirection';

/** The model's reasoning, opened from its line above the answer. */
export function ReasoningBody(props: { id: string; text: string; final: boolean }) {
  return (
    <div id={props.id} class="reasoning" dir={textDirection(props.text)}>
      <Markdown text={props.text} final={props.final} />
    </div>
  );
}
