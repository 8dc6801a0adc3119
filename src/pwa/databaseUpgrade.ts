// A tab of a newer build has upgraded the database (a new schema version): Dexie closes this tab's
// connection so the upgrade can go on, and this tab's reads and writes would fail from then on, in
// silence. The tab says so instead, with Reload (UpdatePrompt), which brings the newer build.
import { createSignal } from 'solid-js';
import type { IrisDB } from '../store/db';

const [databaseUpgraded, setDatabaseUpgraded] = createSignal(false);

export { databaseUpgraded };

/** Watches `db` for an upgrade by another connection; returns a function that stops watching. */
export function watchDatabaseUpgrade(db: IrisDB): () => void {
  const onVersionChange = (event: IDBVersionChangeEvent) => {
    // A deletion (newVersion null, "Forget" in another tab) is not a newer build.
    if (event.newVersion) setDatabaseUpgraded(true);
  };
  db.on('versionchange', onVersionChange);
  return () => db.on('versionchange').unsubscribe(onVersionChange);
}
