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
      return error
        ? `The gateway refused this token: ${error}`
        : 'The gateway refused this token. Check it and connect again.';
    case 'offline':
      return error ? `Offline: ${error}` : 'Offline';
  }
}
