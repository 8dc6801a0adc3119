// Tool cards and commentary beats of agent turns (spec README §7).
import type { IrisDB } from '../db';
import type { ActivityRow } from '../schema';

/** Activity of one turn in arrival order. */
export async function turnActivity(db: IrisDB, turn: string): Promise<ActivityRow[]> {
  const rows = await db.activity.where('turn').equals(turn).toArray();
  return rows.sort((a, b) => a.order - b.order);
}

/** Activity of the lane's open turn (shown while the agent works, before its reply exists). */
export async function openTurnActivity(db: IrisDB, lane: string): Promise<ActivityRow[]> {
  const turn = (await db.lanes.get(lane))?.turn;
  return turn ? turnActivity(db, turn) : [];
}

/** Activity of several turns, in no particular order (the caller groups it by turn). */
export async function activityOfTurns(db: IrisDB, turns: readonly string[]): Promise<ActivityRow[]> {
  return turns.length
    ? db.activity
        .where('turn')
        .anyOf([...turns])
        .toArray()
    : [];
}

/**
 * The lane's open turn while it has activity but no message yet: its cards show at the lane's end,
 * since there is no reply to hang them on.
 */
export async function orphanTurn(db: IrisDB, lane: string): Promise<string | undefined> {
  const turn = (await db.lanes.get(lane))?.turn;
  if (!turn) return undefined;
  const [messages, activity] = await Promise.all([
    db.messages.where('turn').equals(turn).count(),
    db.activity.where('turn').equals(turn).count(),
  ]);
  return messages === 0 && activity > 0 ? turn : undefined;
}
