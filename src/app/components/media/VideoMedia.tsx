import { Show, createSignal } from 'solid-js';
import { formatBytes } from '../../../lib/format';
import { learnMediaFacts } from '../../../store/models/media';
import type { MediaRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { MediaFetch, type FetchMode } from './MediaFetch';
import { MediaIcon } from './MediaIcon';
import { UNKNOWN_VIDEO, mediaBox } from './mediaBox';

/** A video in a message, inline with the browser's controls; it seeks through Range requests to the worker. */
export function VideoMedia(props: { row: MediaRow; src: string | undefined; mode: FetchMode; onDownload: () => void }) {
  const { db } = useIris();
  const [failed, setFailed] = createSignal(false);
  const box = () => mediaBox(props.row.width, props.row.height, UNKNOWN_VIDEO);
  const learn = (video: HTMLVideoElement) => {
    const patch: Parameters<typeof learnMediaFacts>[2] = {};
    if (props.row.width === undefined && video.videoWidth > 0)
      Object.assign(patch, { width: video.videoWidth, height: video.videoHeight });
    if (props.row.duration === undefined && Number.isFinite(video.duration)) patch.duration = video.duration;
    if (Object.keys(patch).length > 0) void learnMediaFacts(db, props.row.media_id, patch).catch(() => undefined); // learnt again at the next load
  };
  return (
    <Show
      when={props.src && !failed()}
      fallback={
        <div class="media-video placeholder" style={box()}>
          <MediaIcon name="video" size={28} />
          <span class="media-fetch-text">{props.row.filename}</span>
          <Show
            when={!failed()}
            fallback={
              <>
                <span class="media-fetch-text">This video cannot be played here.</span>
                <a class="media-fetch-button" href={props.src} download={props.row.filename}>
                  <MediaIcon name="download" size={18} />
                  <span>Save</span> <span class="media-fetch-size">{formatBytes(props.row.size)}</span>
                </a>
              </>
            }
          >
            <MediaFetch row={props.row} mode={props.mode} label={props.row.filename} onDownload={props.onDownload} />
          </Show>
        </div>
      }
    >
      <video
        class="media-video"
        style={box()}
        src={props.src}
        controls
        playsinline
        preload="metadata"
        aria-label={props.row.filename}
        onLoadedMetadata={(e) => learn(e.currentTarget)}
        onError={() => setFailed(true)}
      />
    </Show>
  );
}
