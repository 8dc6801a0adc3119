import { Show } from 'solid-js';
import { ModalDialog } from '../shell/ModalDialog';

/** A pairing link that would replace the current gateway or token, waiting for the person's word. */
export interface PendingPairing {
  /** The gateway the link names, and its token. */
  url: string;
  token: string;
  /** The gateway this app is paired with now. */
  currentUrl: string;
}

/** "wss://host:port/ws" → "host:port" (what a person recognises); the text itself when it is not a URL. */
function gatewayHost(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url.slice(0, 200);
  }
}

/**
 * Asks before a pairing link replaces the pairing this app has: a link can come from anyone (a
 * message, a page, a QR code), and following it silently would unpair the app or pair it with
 * someone else's gateway.
 */
export function ReplacePairingDialog(props: {
  pending: PendingPairing | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const host = () => gatewayHost(props.pending?.url ?? '');
  const current = () => gatewayHost(props.pending?.currentUrl ?? '');
  /** The same gateway with another token: not "a different gateway". */
  const sameGateway = () => host() === current();
  return (
    // Mounted only while asking: a closed dialog's words would still be in the page.
    <Show when={props.pending}>
      <ModalDialog
        open={!!props.pending}
        title={sameGateway() ? 'Pair again with a new token?' : 'Pair with a different gateway?'}
        onClose={props.onCancel}
        class="replace-pairing"
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            props.onConfirm();
          }}
        >
          <Show
            when={!sameGateway()}
            fallback={
              <p>
                This link pairs Iris with <strong class="pair-host">{host()}</strong> again, with a different token. It
                replaces the token this device uses now.
              </p>
            }
          >
            <p>
              This link pairs Iris with <strong class="pair-host">{host()}</strong>. It replaces the pairing with{' '}
              <strong class="pair-host">{current()}</strong>.
            </p>
          </Show>
          <p>Continue only if you made this link yourself or trust who sent it.</p>
          <div class="modal-actions">
            <button type="button" class="button secondary" onClick={() => props.onCancel()}>
              Keep current pairing
            </button>
            <button type="submit" class="button">
              Pair with {host()}
            </button>
          </div>
        </form>
      </ModalDialog>
    </Show>
  );
}
