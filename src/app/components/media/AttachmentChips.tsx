import { For, Show, createEffect, createSignal, onCleanup } from 'solid-js';
import { formatBytes, formatDuration } from '../../../lib/format';
import { typedBlob } from '../../../protocol/mime';
import { liveOn } from '../../../store/live';
import { getMedia, getMediaBlob } from '../../../store/models/media';
import type { MediaRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { MediaIcon, type MediaIconName } from './MediaIcon';
import './Media.css';

const KIND_ICON: Record<MediaRow['kind'], MediaIconName> = {
  image: 'image',
  voice: 'mic',
  audio: 'audio',
  video: 'video',
  document: 'file',
};

/** The attachments of the message being written: thumbnail or icon, name, size, and Remove. */
export function AttachmentChips(props: { ids: string[]; onRemove: (mediaId: string) => void }) {
  return (
    <Show when={props.ids.length > 0}>
      <ul class="attachment-chips" aria-label="Attachments">
        <For each={props.ids}>{(id) => <Chip id={id} onRemove={() => props.onRemove(id)} />}</For>
      </ul>
    </Show>
  );
}

function Chip(props: { id: string; onRemove: () => void }) {
  const { db } = useIris();
  const row = liveOn(
    // eslint-disable-next-line solid/reactivity -- liveOn tracks its source (a createComputed) and re-subscribes when it changes
    () => props.id,
    (id) => getMedia(db, id),
  );
  const [thumb, setThumb] = createSignal<string>();
  // The picture itself, from the stored bytes (an object URL, released with the chip).
  createEffect(() => {
    const r = row();
    if (r?.kind !== 'image') return;
    let url: string | undefined;
    let live = true;
    void getMediaBlob(db, r.media_id).then((stored) => {
      if (!live || !stored) return;
      url = URL.createObjectURL(typedBlob(stored.blob, r.mime));
      setThumb(url);
    });
    onCleanup(() => {
      live = false;
      if (url) URL.revokeObjectURL(url);
      setThumb(undefined);
    });
  });
  const name = () => (row()?.kind === 'voice' ? 'Voice message' : (row()?.filename ?? ''));
  const meta = () => {
    const r = row();
    if (!r) return '';
    return [r.kind === 'voice' ? formatDuration(r.duration) : '', formatBytes(r.size)].filter(Boolean).join(' · ');
  };
  return (
    <Show when={row()}>
      {(r) => (
        <li class="attachment-chip" data-kind={r().kind}>
          <span class="chip-thumb">
            <Show when={thumb()} fallback={<MediaIcon name={KIND_ICON[r().kind]} />}>
              <img src={thumb()} alt="" />
            </Show>
          </span>
          <span class="chip-text">
            <span class="chip-name" title={r().filename}>
              {name()}
            </span>
            <span class="chip-meta">{meta()}</span>
          </span>
          <button type="button" class="chip-remove" aria-label={`Remove ${name()}`} onClick={() => props.onRemove()}>
            <MediaIcon name="close" size={18} />
          </button>
        </li>
      )}
    </Show>
  );
}
