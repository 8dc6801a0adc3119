// The pictures of a lane the viewer can step through: every stored image, in message order.
import Dexie from 'dexie';
import type { IrisDB } from '../../../store/db';
import type { MediaRow } from '../../../store/schema';

export async function laneImages(db: IrisDB, lane: string): Promise<MediaRow[]> {
  const messages = await db.messages
    .where('[lane+ts]')
    .between([lane, Dexie.minKey], [lane, Dexie.maxKey])
    .filter((m) => m.media?.some((r) => r.kind === 'image') ?? false)
    .toArray();
  const ids = messages.flatMap((m) => m.media!.filter((r) => r.kind === 'image').map((r) => r.media_id));
  const rows = await db.media.bulkGet(ids);
  return rows.filter((r): r is MediaRow => r !== undefined && (r.state === 'ready' || r.state === 'local'));
}
