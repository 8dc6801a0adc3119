import { Show, createSignal } from 'solid-js';
import { Portal } from 'solid-js/web';
import { learnMediaFacts } from '../../../store/models/media';
import type { MediaRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { lazyPart } from '../../lazy/lazyPart';
import { MediaFetch, type FetchMode } from './MediaFetch';
import { MediaIcon } from './MediaIcon';
import { mediaBox } from './mediaBox';

const UNKNOWN = { width: 240, height: 180 };

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
  const [broken, setBroken] = createSignal(false);
  const box = () => mediaBox(props.row.width, props.row.height, UNKNOWN);

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
      when={props.src && !broken()}
      fallback={
        <div class="media-image placeholder" style={box()}>
          <MediaIcon name="image" size={28} />
          <Show
            when={broken()}
            fallback={
              <MediaFetch row={props.row} mode={props.mode} label={props.row.filename} onDownload={props.onDownload} />
            }
          >
            <span class="media-fetch-text">This picture cannot be shown.</span>
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
          onError={() => setBroken(true)}
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
