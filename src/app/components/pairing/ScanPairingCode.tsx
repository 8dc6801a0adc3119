import { Show, createSignal, onCleanup } from 'solid-js';
import { readPairingLink, type PairingLinkFields } from '../../../lib/pairingLink';
import './ScanPairingCode.css';

// The Shape Detection API is not in TypeScript's DOM library yet.
interface DetectedCode {
  rawValue: string;
}
interface BarcodeDetectorLike {
  detect(source: CanvasImageSource): Promise<DetectedCode[]>;
}
interface BarcodeDetectorClass {
  new (options?: { formats: string[] }): BarcodeDetectorLike;
  getSupportedFormats?(): Promise<string[]>;
}

const SCAN_EVERY_MS = 250;

function detectorClass(): BarcodeDetectorClass | undefined {
  const found = (globalThis as { BarcodeDetector?: unknown }).BarcodeDetector;
  return typeof found === 'function' ? (found as BarcodeDetectorClass) : undefined;
}

/** Where the browser can read a QR code from the camera (Chrome on Android has BarcodeDetector). */
export function canScanPairingCode(): boolean {
  return detectorClass() !== undefined && typeof navigator.mediaDevices?.getUserMedia === 'function';
}

/**
 * "Scan a pairing code": the camera until a pairing link is seen, then its fields go to the form.
 * Shown only where the browser can do it; a camera refused is said in words.
 */
export function ScanPairingCode(props: { onScanned: (fields: PairingLinkFields) => void }) {
  const [scanning, setScanning] = createSignal(false);
  const [note, setNote] = createSignal('');
  let video: HTMLVideoElement | undefined;
  let stream: MediaStream | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  function stop(): void {
    clearTimeout(timer);
    timer = undefined;
    for (const track of stream?.getTracks() ?? []) track.stop();
    stream = undefined;
    setScanning(false);
  }
  onCleanup(stop);

  async function start(): Promise<void> {
    const Detector = detectorClass();
    if (!Detector) return;
    setNote('');
    setScanning(true);
    try {
      const formats = (await Detector.getSupportedFormats?.()) ?? ['qr_code'];
      if (!formats.includes('qr_code')) throw new Error('This browser cannot read QR codes.');
      const detector = new Detector({ formats: ['qr_code'] });
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      if (!scanning() || !video) return stop();
      video.srcObject = stream;
      await video.play().catch(() => undefined); // autoplay refused: the detector still reads the frames
      const tick = async () => {
        if (!scanning() || !video) return;
        const codes = await detector.detect(video).catch(() => [] as DetectedCode[]); // a frame not ready yet: the next tick reads again
        for (const code of codes) {
          const fields = readPairingLink(code.rawValue);
          if (fields) {
            stop();
            setNote('Pairing code read. Check the address, then connect.');
            props.onScanned(fields);
            return;
          }
        }
        if (codes.length > 0) setNote('That code is not an Iris pairing link.');
        timer = setTimeout(() => void tick(), SCAN_EVERY_MS);
      };
      void tick();
    } catch (err) {
      stop();
      const name = (err as { name?: string }).name;
      setNote(
        name === 'NotAllowedError'
          ? 'The camera is not allowed for this page. Allow it in the browser’s site settings, or type the address and token.'
          : `The camera could not start (${err instanceof Error ? err.message : String(err)}). Type the address and token instead.`,
      );
    }
  }

  return (
    <div class="pair-scan">
      <Show
        when={scanning()}
        fallback={
          <button type="button" class="button secondary" onClick={() => void start()}>
            Scan a pairing code
          </button>
        }
      >
        <video ref={video} class="pair-scan-video" muted playsinline aria-label="Camera view for the pairing code" />
        <button type="button" class="button secondary" onClick={stop}>
          Stop scanning
        </button>
      </Show>
      <Show when={note()}>
        <p class="pair-scan-note" role="status">
          {note()}
        </p>
      </Show>
    </div>
  );
}
