import type { ConnectionState } from '../client';

/** The connection state in words a person understands. */
export function connectionStateText(state: ConnectionState, error?: string): string {
  switch (state) {
    case 'online':
      return 'Connected';
    case 'connecting':
      return 'Connecting…';
    case 'pairing':
      return 'Pairing…';
    case 'auth-failed':
      // One sentence of ours: the gateway's own refusal ("The token was not accepted. Pair this device
      // again.") repeats it and, on the pairing page, asks for what the person is already doing.
      return 'The gateway did not accept this token: copy it again from where the gateway printed it, and connect.';
    case 'offline':
      return error ? `Offline: ${error}` : 'Offline';
  }
}
