// agent.busy, agent.idle, typing: the lane's thinking indicator and its turn (spec README §7, §11).
import { bool, pickerAnswer, str } from '../../protocol/guards';
import { ensureTurn, patchLane } from '../models/lanes';
import { answeredElsewhere, closePickers } from '../models/pickers';
import { endAgentTurn } from '../models/messages';
import { laneOf } from '../../protocol/lanes';
import type { Handler } from './types';

export const agentBusy: Handler = async (db, frame) => {
  const lane = laneOf(frame);
  if (lane === undefined) return;
  const reason = str(frame.payload.reason);
  await patchLane(db, lane, (row) => {
    row.busy = true;
    if (reason !== undefined) row.busyReason = reason;
    else delete row.busyReason;
    ensureTurn(row);
    return row;
  });
  // The agent moved on: a question it asked was answered, here or on another device (which answer,
  // when the gateway says so).
  const answered = pickerAnswer(frame.payload.answered);
  if (answered) await answeredElsewhere(db, lane, answered.picker_id, answered.value);
  if (reason !== 'waiting_input') await closePickers(db, lane);
};

export const agentIdle: Handler = async (db, frame) => {
  const lane = laneOf(frame);
  if (lane === undefined) return;
  await endAgentTurn(db, lane);
  await closePickers(db, lane);
};

export const typing: Handler = async (db, frame) => {
  const lane = laneOf(frame);
  const on = bool(frame.payload.on);
  if (lane === undefined || on === undefined) return;
  await patchLane(db, lane, (row) => {
    row.typing = on;
    return row;
  });
};
