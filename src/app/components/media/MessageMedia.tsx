import { For, Show } from 'solid-js';
import type { MessageRow } from '../../../store/schema';
import { MediaView } from './MediaView';
import './Media.css';

/** The attachments of a message, in the order they were sent. */
export function MessageMedia(props: { message: MessageRow }) {
  return (
    <Show when={props.message.media?.length}>
      <div class="message-media">
        <For each={props.message.media}>{(item) => <MediaView item={item} message={props.message} />}</For>
      </div>
    </Show>
  );
}
