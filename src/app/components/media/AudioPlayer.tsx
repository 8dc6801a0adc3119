import { Show, createSignal, onCleanup } from 'solid-js';
import { formatBytes, formatDuration } from '../../../lib/format';
import { learnMediaFacts } from '../../../store/models/media';
import type { MediaRow } from '../../../store/schema';
import { useIris } from '../../../runtime';
import { MediaFetch, type FetchMode } from './MediaFetch';
import { MediaIcon } from './MediaIcon';

/**
 * A voice message or audio file: play/pause, a position slider and the time, on a plain <audio>.
 * Recordings (WebM from MediaRecorder) carry no duration: the player seeks to the end once to learn it.
 */
export function AudioPlayer(props: {
  row: MediaRow;
  src: string | undefined;
  mode: FetchMode;
  onDownload: () => void;
}) {
  const { db } = useIris();
  const [playing, setPlaying] = createSignal(false);
  const [position, setPosition] = createSignal(0);
  const [learned, setLearned] = createSignal<number | undefined>();
  const [failed, setFailed] = createSignal(false);
  let audio: HTMLAudioElement | undefined;
  let probing = false;

  const duration = () => learned() ?? props.row.duration;
  const label = () => (props.row.kind === 'voice' ? 'voice message' : props.row.filename);

  const learn = () => {
    if (!audio) return;
    const d = audio.duration;
    if (Number.isFinite(d) && d > 0) {
      setLearned(d);
      if (probing) {
        probing = false;
        audio.currentTime = 0;
      }
      if (props.row.duration === undefined || Math.abs(props.row.duration - d) > 0.5) {
        void learnMediaFacts(db, props.row.media_id, { duration: d }).catch(() => undefined); // learnt again at the next load
      }
    } else if (d === Infinity && !probing) {
      probing = true;
      audio.currentTime = 1e101;
    }
  };
  onCleanup(() => audio?.pause());

  const toggle = () => {
    if (!audio) return;
    if (audio.paused) void audio.play().catch(() => setFailed(true));
    else audio.pause();
  };

  return (
    <div class="audio-player" classList={{ voice: props.row.kind === 'voice' }}>
      <Show
        when={props.src && !failed()}
        fallback={
          <>
            <span class="audio-icon">
              <MediaIcon name={props.row.kind === 'voice' ? 'mic' : 'audio'} />
            </span>
            <span class="audio-text">
              <span class="audio-name">{props.row.kind === 'voice' ? 'Voice message' : props.row.filename}</span>
              <span class="audio-meta">
                {[formatDuration(props.row.duration), formatBytes(props.row.size)].filter(Boolean).join(' · ')}
              </span>
            </span>
            <Show when={!failed()} fallback={<span class="media-fetch-text">This audio cannot be played here.</span>}>
              <MediaFetch row={props.row} mode={props.mode} label={label()} onDownload={props.onDownload} compact />
            </Show>
          </>
        }
      >
        <button
          type="button"
          class="audio-toggle"
          aria-label={playing() ? `Pause ${label()}` : `Play ${label()}`}
          onClick={toggle}
        >
          <MediaIcon name={playing() ? 'pause' : 'play'} />
        </button>
        <input
          type="range"
          class="audio-seek"
          aria-label={`Position in ${label()}`}
          min={0}
          max={duration() ?? 0}
          step={0.1}
          value={position()}
          aria-valuetext={`${formatDuration(position())} of ${formatDuration(duration()) || 'unknown'}`}
          onInput={(e) => {
            if (audio) audio.currentTime = Number(e.currentTarget.value);
          }}
        />
        <span class="audio-time">
          {formatDuration(position())} / {formatDuration(duration()) || '–:––'}
        </span>
        <audio
          ref={audio}
          src={props.src}
          preload="metadata"
          onLoadedMetadata={learn}
          onDurationChange={learn}
          onTimeUpdate={() => {
            if (probing) learn();
            else if (audio) setPosition(audio.currentTime);
          }}
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => {
            setPlaying(false);
            setPosition(0);
            if (audio) audio.currentTime = 0;
          }}
          onError={() => setFailed(true)}
        />
      </Show>
    </div>
  );
}
