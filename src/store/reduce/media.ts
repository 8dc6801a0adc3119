// media.offer, and the media rows of messages (spec README §10; issue 6: without message_id, an
// offer joins the lane's newest assistant message).
import Dexie from 'dexie';
import type { MediaRef } from '../../protocol';
import type { IrisDB } from '../db';
import { mediaRef, serverMessageId } from '../../protocol/guards';
import { recordRemoteMedia } from '../models/media';
import type { MessageRow } from '../schema';
import { laneOf } from '../../protocol/lanes';
import type { Handler } from './types';

/** `refs` plus those of `extra` it lacks, in order. */
export function mergeRefs(refs: readonly MediaRef[], extra: readonly MediaRef[]): MediaRef[] {
  const out = [...refs];
  for (const ref of extra) if (!out.some((r) => r.media_id === ref.media_id)) out.push(ref);
  return out;
}

function refOf(row: MediaRef): MediaRef {
  return { media_id: row.media_id, kind: row.kind, mime: row.mime, size: row.size, filename: row.filename };
}

/** Refs of media rows already pointing at a message (an offer that came before its message). */
export async function offeredRefs(db: IrisDB, messageId: string): Promise<MediaRef[]> {
  return (await db.media.where('message_id').equals(messageId).toArray()).map(refOf);
}

async function newestAssistantMessage(db: IrisDB, lane: string): Promise<MessageRow | undefined> {
  return db.messages
    .where('[lane+ts]')
    .between([lane, Dexie.minKey], [lane, Dexie.maxKey])
    .reverse()
    .filter((m) => m.role === 'assistant')
    .first();
}

export const mediaOffer: Handler = async (db, frame, ctx) => {
  const ref = mediaRef(frame.payload);
  if (!ref) return;
  const explicit = serverMessageId(frame.payload.message_id);
  const known = await db.media.get(ref.media_id);
  const frameLaneId = laneOf(frame);
  let target: MessageRow | undefined;
  if (explicit !== undefined) target = await db.messages.get(explicit);
  else if (known?.message_id !== undefined) target = await db.messages.get(known.message_id);
  else if (frameLaneId !== undefined) target = await newestAssistantMessage(db, frameLaneId);
  const lane = frameLaneId ?? target?.lane ?? known?.lane;
  if (lane === undefined) return;
  const messageId = explicit ?? known?.message_id ?? target?.message_id;
  await recordRemoteMedia(db, ref, messageId === undefined ? { lane } : { lane, message_id: messageId }, ctx.now);
  if (target && !target.media?.some((m) => m.media_id === ref.media_id)) {
    await db.messages.put({ ...target, media: mergeRefs(target.media ?? [], [ref]) });
  }
};
