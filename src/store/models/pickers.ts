// Open questions from the agent (spec README §11), answerable after a reload until answered or closed.
import Dexie from 'dexie';
import type { IrisDB } from '../db';
import type { PickerRow } from '../schema';
import { shownSettledPickers } from '../settledPickers';

/** Pickers still waiting for an answer in a lane, oldest first. */
export async function openPickers(db: IrisDB, lane: string): Promise<PickerRow[]> {
  const rows = await db.pickers
    .where('lane')
    .equals(lane)
    .filter((p) => p.state === 'open')
    .toArray();
  return rows.sort((a, b) => a.ts - b.ts);
}

export async function getPicker(db: IrisDB, pickerId: string): Promise<PickerRow | undefined> {
  return db.pickers.get(pickerId);
}

/**
 * Record the user's answer before `picker.select` goes out, so the dialog closes at once and the
 * picker is answered once. False if it was not open (already answered here or closed elsewhere).
 */
export async function answerPicker(db: IrisDB, pickerId: string, value: string): Promise<boolean> {
  return db.transaction('rw', db.pickers, async () => {
    const row = await db.pickers.get(pickerId);
    if (!row || row.state !== 'open') return false;
    await db.pickers.put({ ...row, state: 'answered', answer: value });
    return true;
  });
}

/** The answer never reached the gateway, or it asks again: the question is open here once more. */
export async function reopenPicker(db: IrisDB, pickerId: string): Promise<void> {
  await db.pickers.update(pickerId, { state: 'open', answer: undefined });
}

/** The question is gone at the gateway (answered on another device, dropped): closed here too. */
export async function closePicker(db: IrisDB, pickerId: string): Promise<void> {
  await db.pickers.update(pickerId, { state: 'closed' });
}

/**
 * The gateway says which answer a question of `lane` took (the `answered` extension of agent.busy):
 * answered on another device, it shows that answer here rather than "Closed". An answer given here
 * stays as it is.
 */
export async function answeredElsewhere(db: IrisDB, lane: string, pickerId: string, value: string): Promise<void> {
  const row = await db.pickers.get(pickerId);
  if (!row || row.lane !== lane || row.state === 'answered') return;
  await db.pickers.put({ ...row, state: 'answered', answer: value });
}

/** Close every open picker of a lane (answered on another device). */
export async function closePickers(db: IrisDB, lane: string): Promise<number> {
  return db.pickers
    .where('lane')
    .equals(lane)
    .filter((p) => p.state === 'open')
    .modify({ state: 'closed' });
}

/**
 * The lane's pickers no longer open, oldest first, each with when it was asked and how many of the lane's
 * messages came before it: where its card goes in the conversation. One closed without an answer from
 * here (answered on another device, or the agent moved on: the person wrote a new message instead)
 * shows as closed: the question the agent asked stays in the conversation either way.
 */
export async function settledPickerPlaces(
  db: IrisDB,
  lane: string,
): Promise<{ picker_id: string; after: number; ts: number }[]> {
  return db.transaction('r', db.pickers, db.messages, async () => {
    const shown = shownSettledPickers(await db.pickers.where('lane').equals(lane).toArray());
    return Promise.all(
      shown.map(async (p) => ({
        picker_id: p.picker_id,
        ts: p.ts,
        after: await db.messages.where('[lane+ts]').between([lane, Dexie.minKey], [lane, p.ts], true, true).count(),
      })),
    );
  });
}
