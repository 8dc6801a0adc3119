// The app's one database and one client. Components read the DB and call commands; they never
// see the socket.
import { IrisDB } from '../store/db';
import { createClient, type IrisClient } from '../client';

let instance: { db: IrisDB; client: IrisClient } | undefined;

export function iris(): { db: IrisDB; client: IrisClient } {
  if (!instance) {
    const db = new IrisDB();
    const client = createClient({ db });
    void client.start();
    instance = { db, client };
  }
  return instance;
}

/** The gateway this page was served with: same origin, path /ws. */
export function sameOriginGatewayUrl(): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
}
