import { Match, Switch, createSignal } from 'solid-js';
import { formatBytes } from '../../../lib/format';
import type { MediaRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { MediaIcon } from './MediaIcon';

export type FetchMode = 'auto' | 'tap';

/**
 * What a media item shows while its bytes are not here: progress while downloading, "Download"
 * (files that wait for a tap), "Download again" (evicted), "Try again" (failed), or a quiet wait.
 */
export function MediaFetch(props: {
  row: MediaRow;
  mode: FetchMode;
  label: string;
  onDownload: () => void;
  compact?: boolean;
}) {
  const { client } = useIris();
  const [asked, setAsked] = createSignal(false);
  const size = () => formatBytes(props.row.size);
  const percent = () => Math.round((props.row.progress ?? 0) * 100);
  const online = () => client.state() === 'online';
  const download = () => {
    setAsked(true);
    props.onDownload();
  };
  return (
    <div class="media-fetch" classList={{ compact: props.compact }}>
      <Switch>
        <Match when={props.row.state === 'downloading'}>
          <div class="media-progress" role="status">
            <progress max={100} value={percent()} aria-label={`Downloading ${props.label}`} />
            <span class="media-fetch-text">Downloading… {percent()}%</span>
          </div>
        </Match>
        <Match when={props.row.state === 'failed'}>
          {/* The reason, in the gateway's words or ours ("The gateway stopped sending this file."). */}
          <span class="media-fetch-text" role="status">
            Could not download{props.row.error ? `: ${props.row.error}` : '.'}
          </span>
          <button
            type="button"
            class="media-fetch-button"
            onClick={download}
            aria-label={`Try again to download ${props.label}`}
          >
            <MediaIcon name="retry" size={18} />
            <span>Try again</span>
          </button>
        </Match>
        <Match when={asked() && !online()}>
          <span class="media-fetch-text" role="status">
            Downloads when connected.
          </span>
        </Match>
        <Match when={props.row.state === 'evicted'}>
          <button
            type="button"
            class="media-fetch-button"
            onClick={download}
            aria-label={`Download again, ${size()}, ${props.label}`}
          >
            <MediaIcon name="download" size={18} />
            <span>Download again</span> <span class="media-fetch-size">{size()}</span>
          </button>
        </Match>
        <Match when={props.mode === 'tap' && !asked()}>
          <button
            type="button"
            class="media-fetch-button"
            onClick={download}
            aria-label={`Download, ${size()}, ${props.label}`}
          >
            <MediaIcon name="download" size={18} />
            <span>Download</span> <span class="media-fetch-size">{size()}</span>
          </button>
        </Match>
        <Match when={true}>
          <span class="media-fetch-text" role="status">
            {online() ? 'Loading…' : 'Downloads when connected.'}
          </span>
        </Match>
      </Switch>
    </div>
  );
}
