// picker.*: an open question in its lane until answered here or closed by the agent moving on (§11).
import { isPickerType, pickerPayload } from '../../protocol/guards';
import { defaultChannel } from '../models/channels';
import type { PickerRow } from '../schema';
import { laneOf } from '../../protocol/lanes';
import type { Handler } from './types';

export const picker: Handler = async (db, frame, ctx) => {
  if (!isPickerType(frame.type)) return;
  const payload = pickerPayload(frame.type, frame.payload);
  if (!payload) return;
  const existing = await db.pickers.get(payload.picker_id);
  if (existing && existing.state !== 'open') return;
  // A picker must show somewhere: without a lane it goes to the default channel.
  const lane = existing?.lane ?? laneOf(frame) ?? (await defaultChannel(db))?.chat_id;
  if (lane === undefined) return;
  const row: PickerRow = {
    picker_id: payload.picker_id,
    lane,
    type: frame.type,
    payload,
    state: 'open',
    ts: existing?.ts ?? ctx.now,
  };
  if (!existing || JSON.stringify(existing) !== JSON.stringify(row)) await db.pickers.put(row);
};
