// Voice messages: the microphone through MediaRecorder, as one audio Blob. Loaded when a recording starts.
import { canRecord } from './canRecord';

/** The first container/codec this browser records, or "" to let it choose. */
function recordingMime(isTypeSupported: (type: string) => boolean = (t) => MediaRecorder.isTypeSupported(t)): string {
  for (const type of ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4', 'audio/webm']) {
    if (isTypeSupported(type)) return type;
  }
  return '';
}

export interface Recording {
  blob: Blob;
  /** Seconds. */
  duration: number;
}

/** One recording: start(), then stop() for the audio or cancel() to throw it away. */
export class VoiceRecorder {
  private recorder: MediaRecorder | undefined;
  private stream: MediaStream | undefined;
  private chunks: Blob[] = [];
  private startedAt = 0;

  /** Asks for the microphone and starts recording; rejects with a sentence when it cannot. */
  async start(): Promise<void> {
    if (!canRecord()) throw new Error('This browser cannot record audio.');
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name === 'NotAllowedError' || name === 'SecurityError')
        throw new Error('Microphone access was refused. Allow it in the browser to record.', { cause: err });
      if (name === 'NotFoundError') throw new Error('No microphone was found.', { cause: err });
      throw new Error('The microphone could not be started.', { cause: err });
    }
    const mimeType = recordingMime();
    this.recorder = new MediaRecorder(this.stream, mimeType ? { mimeType } : undefined);
    this.chunks = [];
    this.recorder.addEventListener('dataavailable', (e) => {
      if (e.data.size > 0) this.chunks.push(e.data);
    });
    this.recorder.start(250);
    this.startedAt = performance.now();
  }

  /** Seconds recorded so far. */
  elapsed(): number {
    return this.startedAt ? (performance.now() - this.startedAt) / 1000 : 0;
  }

  /** Ends the recording and returns it. */
  stop(): Promise<Recording> {
    const recorder = this.recorder;
    if (!recorder) return Promise.reject(new Error('Not recording.'));
    const duration = this.elapsed();
    return new Promise((resolve, reject) => {
      recorder.addEventListener(
        'stop',
        () => {
          const type = recorder.mimeType || this.chunks[0]?.type || 'audio/webm';
          const blob = new Blob(this.chunks, { type });
          this.release();
          if (blob.size === 0) reject(new Error('Nothing was recorded.'));
          else resolve({ blob, duration });
        },
        { once: true },
      );
      recorder.stop();
    });
  }

  /** Throws the recording away and frees the microphone. */
  cancel(): void {
    if (this.recorder && this.recorder.state !== 'inactive') this.recorder.stop();
    this.release();
  }

  private release(): void {
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = undefined;
    this.recorder = undefined;
    this.chunks = [];
    this.startedAt = 0;
  }
}
