import { For, Show } from 'solid-js';
import type { MessageRow } from '../../../store/schema';
import { lazyPart } from '../../lazy/lazyPart';
import './Media.css';

// Loaded with the first message that has an attachment (its players, viewer and the media puller),
// not with every lane: most lanes open without one on screen, and its bytes are pulled after anyway.
const MediaView = lazyPart(() => import('./MediaView').then((m) => m.MediaView));

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
