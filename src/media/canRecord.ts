// Whether this browser can record voice messages: a file of its own, so the record button can ask
// without loading the recorder (recorder.ts), which comes when a recording starts.

export function canRecord(): boolean {
  return (
    typeof MediaRecorder !== 'undefined' && typeof navigator !== 'undefined' && !!navigator.mediaDevices?.getUserMedia
  );
}
