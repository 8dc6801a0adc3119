import { Match, Show, Switch, createEffect, createSignal, onCleanup, onMount } from 'solid-js';
import type { MediaRef } from '../../../protocol';
import { downloadsByItself } from '../../../media/puller';
import { startMediaPuller } from '../../../media/runtime';
import { getMediaSettings } from '../../../store/models/mediaSettings';
import { liveOn, live } from '../../../store/live';
import { getMedia, hasMessageMedia, touchMedia } from '../../../store/models/media';
import { localMessageId } from '../../../store/models/messages';
import type { MediaRow, MessageRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { AudioPlayer } from './AudioPlayer';
import { DocumentChip } from './DocumentChip';
import { ImageMedia } from './ImageMedia';
import type { FetchMode } from './MediaFetch';
import { createMediaSrc } from './mediaSrc';
import { UploadStrip } from './UploadStrip';
import { VideoMedia } from './VideoMedia';

/** lastUsed is written at most this often per file (it drives eviction, least recently used first). */
const TOUCH_EVERY_MS = 60_000;

export interface MediaViewProps {
  item: MediaRef;
  message: MessageRow;
  /** Its stored row as the lane's window read it with the message: the first frame's, before its own read. */
  stored: MediaRow | undefined;
}

/** One attachment of a message: its bytes through /media/<id> once stored, or how to get them. */
export function MediaView(props: MediaViewProps) {
  const iris = useIris();
  const { db } = iris;
  const puller = iris.shared(startMediaPuller);
  const id = () => props.item.media_id;
  const autoSetting = live(async () => (await getMediaSettings(db)).autoDownload, true);
  // eslint-disable-next-line solid/reactivity -- liveOn tracks its source (a createComputed) and re-subscribes when it changes
  const stored = liveOn(id, (mediaId) => getMedia(db, mediaId));
  const row = (): MediaRow => stored() ?? props.stored ?? { ...props.item, state: 'remote', lastUsed: 0 };
  const available = () => row().state === 'ready' || row().state === 'local';
  const src = createMediaSrc(id, available);
  // This device's own file between the echo and the move of its bytes: a quiet wait, no button.
  const ownClientId = () => (props.message.role === 'user' ? props.message.client_id : undefined);
  // eslint-disable-next-line solid/reactivity -- liveOn tracks its source (a createComputed) and re-subscribes when it changes
  const ownEcho = liveOn(
    ownClientId,
    async (clientId) => clientId !== undefined && (await hasMessageMedia(db, localMessageId(clientId))),
    false,
  );
  const mode = (): FetchMode =>
    ownEcho() || downloadsByItself(row(), { autoDownload: autoSetting() }) ? 'auto' : 'tap';
  const download = () => puller.request(id());
  const [visible, setVisible] = createSignal(false);

  let box!: HTMLDivElement;
  onMount(() => {
    const observer = new IntersectionObserver((entries) => setVisible(entries.some((e) => e.isIntersecting)), {
      rootMargin: '200px 0px',
    });
    observer.observe(box);
    onCleanup(() => {
      observer.disconnect();
      puller.setVisible(id(), false);
    });
  });
  createEffect(() => puller.setVisible(id(), visible()));
  createEffect(() => {
    const r = stored();
    if (visible() && r?.state === 'ready' && Date.now() - r.lastUsed > TOUCH_EVERY_MS) {
      void touchMedia(db, r.media_id, Date.now()).catch(() => undefined); // only ages the eviction order; the next view touches it
    }
  });

  const uploading = () =>
    row().state === 'local' && props.message.status === 'pending' && props.message.client_id !== undefined;

  return (
    <div class="media" ref={box} data-media-id={id()} data-kind={row().kind} data-state={row().state}>
      <Switch>
        <Match when={row().kind === 'image'}>
          <ImageMedia row={row()} src={src()} lane={props.message.lane} mode={mode()} onDownload={download} />
        </Match>
        <Match when={row().kind === 'voice' || row().kind === 'audio'}>
          <AudioPlayer row={row()} src={src()} mode={mode()} onDownload={download} />
        </Match>
        <Match when={row().kind === 'video'}>
          <VideoMedia row={row()} src={src()} mode={mode()} onDownload={download} />
        </Match>
        <Match when={true}>
          <DocumentChip row={row()} src={src()} mode={mode()} onDownload={download} />
        </Match>
      </Switch>
      <Show when={uploading()}>
        <UploadStrip row={row()} clientId={props.message.client_id!} />
      </Show>
    </div>
  );
}
