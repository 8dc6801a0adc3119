import { For, Show, createSignal } from 'solid-js';
import type { MessageRow } from '../../../store/schema';
import { lazyPart } from '../../lazy/lazyPart';
import { useMessageList } from '../messages/listContext';
import { attachmentBox } from './mediaBox';
import './Media.css';

// Loaded with the first message that has an attachment (its players, viewer and the media puller),
// not with every lane: most lanes open without one on screen, and its bytes are pulled after anyway.
const MediaView = lazyPart(() => import('./MediaView').then((m) => m.MediaView));
/** MediaView's code is here (or could not be fetched: it then says so in its place). */
const [viewLoaded, setViewLoaded] = createSignal(false);
let viewAsked = false;

/** Asks for MediaView's code once, with the first message that has an attachment. */
function loadMediaView(): void {
  if (viewAsked) return;
  viewAsked = true;
  void MediaView.preload().then(() => setViewLoaded(true));
}

/**
 * The attachments of a message, in the order they were sent. Their stored rows come with the message
 * (the lane's window reads them together), so a picture's box has its size from the first frame: while
 * MediaView's code loads, that box (or a file's chip's) stands in its place (the lane head draws the same).
 */
export function MessageMedia(props: { message: MessageRow }) {
  return (
    <Show when={props.message.media?.length}>
      <Attachments message={props.message} />
    </Show>
  );
}

function Attachments(props: { message: MessageRow }) {
  const list = useMessageList();
  loadMediaView();
  return (
    <div class="message-media">
      <For each={props.message.media}>
        {(item) => {
          const stored = () => list.win.media[item.media_id];
          return (
            <Show
              when={viewLoaded()}
              fallback={
                <Show
                  when={attachmentBox(item.kind, stored()?.width, stored()?.height)}
                  fallback={<div class="media-loading media-loading-chip" />}
                >
                  {(box) => <div class="media-image media-loading" style={box()} />}
                </Show>
              }
            >
              <MediaView item={item} message={props.message} stored={stored()} />
            </Show>
          );
        }}
      </For>
    </div>
  );
}
