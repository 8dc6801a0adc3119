// After the gateway's echo of a message with attachments, its media carry the gateway's media_ids.
// The bytes are already here under the local ids: they move to the gateway's ids (state ready), so
// the app never downloads what it uploaded. Local files of a send that no longer exists are dropped.
import type { MediaRef } from '../protocol';
import type { IrisDB } from '../store/db';
import { LOCAL_ID_PREFIX } from '../protocol/guards';
import { localMessageId } from '../store/models/messages';
import type { MediaRow, MessageRow } from '../store/schema';
import { withQuotaRetry } from '../store/models/mediaCache';

/** Local attachments given to a send, grouped by its client_id, each group in message order. */
async function claimedGroups(db: IrisDB): Promise<Map<string, MediaRow[]>> {
  const rows = await db.media
    .where('state')
    .equals('local')
    .filter((r) => r.client_id !== undefined)
    .toArray();
  const groups = new Map<string, MediaRow[]>();
  for (const row of rows) {
    const list = groups.get(row.client_id!) ?? [];
    list.push(row);
    groups.set(row.client_id!, list);
  }
  for (const list of groups.values()) list.sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  return groups;
}

/**
 * Pairs local files with the echo's refs: the same place when the sizes agree (the gateway keeps the
 * order of media_refs), else the first unused ref of the same size. Pure, for tests.
 */
function pairUploads(
  locals: readonly Pick<MediaRow, 'media_id' | 'size'>[],
  refs: readonly MediaRef[],
): Map<string, MediaRef> {
  const out = new Map<string, MediaRef>();
  const used = new Set<string>();
  locals.forEach((local, i) => {
    const same = refs[i];
    const match =
      same && !used.has(same.media_id) && same.size === local.size
        ? same
        : refs.find((r) => !used.has(r.media_id) && r.size === local.size);
    if (match) {
      used.add(match.media_id);
      out.set(local.media_id, match);
    }
  });
  return out;
}

/** The echoed message of a send, once the gateway stored it. */
async function echoOf(db: IrisDB, clientId: string): Promise<MessageRow | undefined> {
  const rows = await db.messages.where('client_id').equals(clientId).toArray();
  return rows.find((m) => !m.message_id.startsWith(LOCAL_ID_PREFIX));
}

/** Whether a send not echoed yet is still queued or shown (its pending bubble). */
async function sendLives(db: IrisDB, clientId: string): Promise<boolean> {
  const [queued, pending] = await Promise.all([db.outbox.get(clientId), db.messages.get(localMessageId(clientId))]);
  return !!(queued || pending);
}

/** Moves the local bytes of one echoed send to the gateway's media ids. */
async function adopt(db: IrisDB, locals: MediaRow[], message: MessageRow, now: number): Promise<void> {
  const pairs = pairUploads(locals, message.media ?? []);
  const bytes = locals.reduce((sum, r) => sum + r.size, 0);
  await withQuotaRetry(
    db,
    () =>
      db.transaction('rw', db.media, db.mediaBlobs, async () => {
        for (const local of locals) {
          const ref = pairs.get(local.media_id);
          const blob = ref && (await db.mediaBlobs.get(local.media_id));
          // A gateway may name the upload by the app's own media_ref (spec §10): then the local row IS
          // the target, and it must become ready in place, not be deleted after the move.
          const inPlace = ref?.media_id === local.media_id;
          if (ref && blob) {
            const target = inPlace ? undefined : await db.media.get(ref.media_id);
            if (target?.state !== 'ready') {
              const row: MediaRow = {
                ...ref,
                ...(target ?? {}),
                lane: message.lane,
                message_id: message.message_id,
                state: 'ready',
                progress: 1,
                lastUsed: now,
              };
              delete row.error;
              delete row.client_id;
              delete row.position;
              if (local.width !== undefined) row.width = local.width;
              if (local.height !== undefined) row.height = local.height;
              if (local.duration !== undefined) row.duration = local.duration;
              await db.mediaBlobs.put({ media_id: ref.media_id, blob: blob.blob });
              await db.media.put(row);
            }
          }
          if (inPlace && blob) continue;
          if (inPlace) {
            // Its bytes are gone here but the gateway has them under this very id: fetch them like any offer.
            const { client_id: _c, position: _p, ...rest } = local;
            await db.media.put({ ...rest, lane: message.lane, message_id: message.message_id, state: 'remote' });
            continue;
          }
          await db.media.delete(local.media_id);
          await db.mediaBlobs.delete(local.media_id);
        }
      }),
    { bytes, keep: new Set(locals.map((l) => l.media_id)) },
  );
}

/**
 * Settles every send whose attachments are still local: echoed → adopted; neither queued nor
 * shown any more (discarded, deleted) → dropped. Idempotent; safe from several tabs. Returns how
 * many files joined the cache (the caller then applies the cap).
 */
export async function settleSentAttachments(db: IrisDB, now = Date.now()): Promise<number> {
  let adopted = 0;
  for (const [clientId, locals] of await claimedGroups(db)) {
    const echo = await echoOf(db, clientId);
    if (echo) {
      await adopt(db, locals, echo, now);
      adopted += locals.length;
      continue;
    }
    if (await sendLives(db, clientId)) continue;
    await db.transaction('rw', [db.media, db.mediaBlobs, db.messages, db.outbox], async () => {
      // Again inside the transaction: the echo may have landed since the reads above, taking the bubble
      // and the outbox row with it (the reducer does all three at once). Dropped then, a gateway that
      // names the upload by the app's own media_ref had nothing left to show or pull (quirks.spec).
      if ((await echoOf(db, clientId)) || (await sendLives(db, clientId))) return;
      const ids = locals.map((l) => l.media_id);
      // Re-read inside the transaction: only rows still local and still this send's are dropped.
      const still = (await db.media.bulkGet(ids))
        .filter((r) => r?.state === 'local' && r.client_id === clientId)
        .map((r) => r!.media_id);
      await db.media.bulkDelete(still);
      await db.mediaBlobs.bulkDelete(still);
    });
  }
  return adopted;
}

/** What settleSentAttachments would act on (a live query re-runs when an echo or a discard lands). */
export async function unsettledSignature(db: IrisDB): Promise<string> {
  const parts: string[] = [];
  for (const [clientId] of await claimedGroups(db)) {
    const [echo, queued, pending] = await Promise.all([
      echoOf(db, clientId),
      db.outbox.get(clientId),
      db.messages.get(localMessageId(clientId)),
    ]);
    parts.push(`${clientId}:${echo ? 'echo' : queued || pending ? 'waiting' : 'gone'}`);
  }
  return parts.join(',');
}
