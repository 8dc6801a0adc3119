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
