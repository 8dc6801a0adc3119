import { useIris } from '../../../runtime';
import type { MediaRow } from '../../../store/schema';

/** Upload progress of a file in a message on its way out, with Cancel (the message is not sent). */
export function UploadStrip(props: { row: MediaRow; clientId: string }) {
  const { client } = useIris();
  const percent = () => Math.round((props.row.progress ?? 0) * 100);
  const online = () => client.state() === 'online';
  // Offline, an upload under way starts over once connected; all sent, the gateway has yet to confirm it.
  const text = () =>
    !online()
      ? 'Sends when connected.'
      : percent() >= 100
        ? 'Waiting for the gateway…'
        : percent() > 0
          ? `Uploading… ${percent()}%`
          : 'Uploading…';
  return (
    <div class="media-upload">
      <progress max={100} value={percent()} aria-label={`Uploading ${props.row.filename}`} />
      <span class="media-upload-text" role="status">
        {text()}
      </span>
      <button
        type="button"
        class="media-upload-cancel"
        aria-label={`Cancel upload of ${props.row.filename}`}
        onClick={() => void client.discard(props.clientId)}
      >
        Cancel
      </button>
    </div>
  );
}
