import { Show, createSignal, onCleanup } from 'solid-js';
import { formatDuration } from '../../../lib/format';
import { canRecord } from '../../../media/canRecord';
import type { Recording, VoiceRecorder } from '../../../media/recorder';
import { MediaIcon } from './MediaIcon';

/**
 * "Record voice message": records from the microphone, shows the length while recording, and ends
 * with "Done" (the recording becomes an attachment) or "Cancel" (thrown away).
 */
export function RecordButton(props: {
  onRecorded: (recording: Recording) => void;
  onError: (message: string) => void;
}) {
  const [recording, setRecording] = createSignal(false);
  const [starting, setStarting] = createSignal(false);
  const [seconds, setSeconds] = createSignal(0);
  let recorder: VoiceRecorder | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;

  const stopTicking = () => {
    if (ticker !== undefined) clearInterval(ticker);
    ticker = undefined;
  };
  onCleanup(() => {
    stopTicking();
    recorder?.cancel();
  });

  async function start() {
    if (starting() || recording()) return;
    setStarting(true);
    try {
      // The recorder's code comes with the first recording (precached by the service worker, so offline too).
      const { VoiceRecorder } = await import('../../../media/recorder').catch((cause: unknown) => {
        throw new Error('The recorder could not be loaded. Check the connection and try again.', { cause });
      });
      const r = new VoiceRecorder();
      await r.start();
      recorder = r;
      setSeconds(0);
      setRecording(true);
      props.onError('');
      ticker = setInterval(() => setSeconds(r.elapsed()), 250);
    } catch (err) {
      props.onError(err instanceof Error ? err.message : 'The microphone could not be started.');
    } finally {
      setStarting(false);
    }
  }

  async function done() {
    const r = recorder;
    recorder = undefined;
    stopTicking();
    setRecording(false);
    if (!r) return;
    try {
      props.onRecorded(await r.stop());
    } catch (err) {
      props.onError(err instanceof Error ? err.message : 'The recording failed.');
    }
  }

  function cancel() {
    recorder?.cancel();
    recorder = undefined;
    stopTicking();
    setRecording(false);
  }

  return (
    <Show
      when={recording()}
      fallback={
        <Show when={canRecord()}>
          <button
            type="button"
            class="composer-icon-button media-button"
            aria-label="Record voice message"
            disabled={starting()}
            onClick={() => void start()}
          >
            <MediaIcon name="mic" />
          </button>
        </Show>
      }
    >
      <div class="recording" role="group" aria-label="Recording a voice message">
        <span class="recording-dot" aria-hidden="true" />
        <span class="recording-time" role="timer" aria-live="off">
          {formatDuration(seconds())}
        </span>
        <button type="button" class="composer-icon-button media-button" aria-label="Cancel recording" onClick={cancel}>
          <MediaIcon name="close" />
        </button>
        <button
          type="button"
          class="composer-icon-button media-button recording-done"
          aria-label="Finish recording"
          onClick={() => void done()}
        >
          <MediaIcon name="stop" />
        </button>
      </div>
    </Show>
  );
}
