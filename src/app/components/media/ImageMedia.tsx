import { Show, createEffect, createMemo, createSignal, on, onCleanup } from 'solid-js';
import { Portal } from 'solid-js/web';
import { learnMediaFacts } from '../../../store/models/media';
import type { MediaRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { lazyPart } from '../../lazy/lazyPart';
import { MediaFetch, type FetchMode } from './MediaFetch';
import { MediaIcon } from './MediaIcon';
import { UNKNOWN_IMAGE, mediaBox } from './mediaBox';

/** A first failure is often passing (the row moving to the gateway's id, bytes still being written). */
const RETRY_AFTER_MS = 1000;

// The full-screen viewer loads when a picture is first tapped.
const ImageViewer = lazyPart(() => import('./ImageViewer').then((m) => m.ImageViewer), {
  title: 'Could not open that',
  onUnavailable: (shown) => shown.onClose(),
});

/** A picture in a message: its box reserved, a tap opens the full-screen viewer. */
export function ImageMedia(props: {
  row: MediaRow;
  src: string | undefined;
  lane: string;
  mode: FetchMode;
  onDownload: () => void;
}) {
  const { db } = useIris();
  const [viewing, setViewing] = createSignal(false);
  // 'retrying': the first failure, tried again by itself; 'broken': failed twice, "Try again" is the person's.
  const [failure, setFailure] = createSignal<'none' | 'retrying' | 'broken'>('none');
  const broken = () => failure() === 'broken';
  let retried = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const failed = () => {
    if (retried) return setFailure('broken');
    retried = true;
    setFailure('retrying');
    retry = setTimeout(() => setFailure((f) => (f === 'retrying' ? 'none' : f)), RETRY_AFTER_MS);
  };
  onCleanup(() => clearTimeout(retry));
  // The row changed (adopted under the gateway's id, downloaded again): its picture may show now.
  const shown = createMemo(() => `${props.row.media_id} ${props.row.state} ${props.src ?? ''}`);
  createEffect(
    on(
      shown,
      () => {
        retried = false;
        setFailure('none');
      },
      { defer: true },
    ),
  );
  const box = () => mediaBox(props.row.width, props.row.height, UNKNOWN_IMAGE);

  const loaded = (img: HTMLImageElement) => {
    // A picture whose size was not known (an older row, a decoder the worker lacks): keep it for next time.
    if (props.row.width === undefined && img.naturalWidth > 0) {
      void learnMediaFacts(db, props.row.media_id, { width: img.naturalWidth, height: img.naturalHeight }).catch(
        () => undefined,
      ); // learnt again at the next load
    }
  };

  return (
    <Show
      when={props.src && failure() === 'none'}
      fallback={
        <div class="media-image placeholder" style={box()}>
          <MediaIcon name="image" size={28} />
          <Show
            when={broken()}
            fallback={
              <MediaFetch row={props.row} mode={props.mode} label={props.row.filename} onDownload={props.onDownload} />
            }
          >
            <div class="media-fetch">
              <span class="media-fetch-text">This picture cannot be shown.</span>
              <button
                type="button"
                class="media-fetch-button"
                onClick={() => setFailure('none')}
                aria-label={`Try again to show ${props.row.filename}`}
              >
                <MediaIcon name="retry" size={18} />
                <span>Try again</span>
              </button>
            </div>
          </Show>
        </div>
      }
    >
      <button
        type="button"
        class="media-image"
        style={box()}
        aria-label={`Open picture ${props.row.filename}`}
        onClick={() => setViewing(true)}
      >
        <img
          src={props.src}
          alt={props.row.filename}
          width={props.row.width}
          height={props.row.height}
          decoding="async"
          onLoad={(e) => loaded(e.currentTarget)}
          onError={failed}
        />
      </button>
      <Show when={viewing()}>
        {/* Outside the message row, so the list's handlers and virtualization never touch it. */}
        <Portal>
          <ImageViewer lane={props.lane} start={props.row.media_id} onClose={() => setViewing(false)} />
        </Portal>
      </Show>
    </Show>
  );
}
