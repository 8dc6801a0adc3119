// The typed Dexie database. One `version()` per schema release, each with its upgrade if data moves.
import Dexie, { type Table } from 'dexie';
import type {
  ActivityRow,
  ChannelRow,
  LaneRow,
  MediaBlobRow,
  MediaRow,
  MessageRow,
  OutboxRow,
  PickerRow,
  SettingRow,
  SyncRow,
  ToastRow,
} from './schema';
import {
  repairActivity,
  repairChannel,
  repairLane,
  repairMedia,
  repairMessage,
  repairPicker,
  repairToast,
} from './repair';

const DB_NAME = 'iris';

/** v1, the first release's tables and indexes, as it shipped: what a database made then holds. */
export const SCHEMA_V1 = {
  settings: '&key',
  channels: '&chat_id, parent_chat_id, order',
  lanes: '&lane',
  messages: '&message_id, [lane+ts], client_id, turn, status',
  activity: '&id, [lane+turn], turn, message_id',
  outbox: '&client_id, seq',
  media: '&media_id, message_id, lane, lastUsed, state',
  mediaBlobs: '&media_id',
  sync: '&gateway',
  pickers: '&picker_id, lane, state',
  toasts: '++id, ts',
};

export class IrisDB extends Dexie {
  settings!: Table<SettingRow, string>;
  channels!: Table<ChannelRow, string>;
  lanes!: Table<LaneRow, string>;
  messages!: Table<MessageRow, string>;
  activity!: Table<ActivityRow, string>;
  outbox!: Table<OutboxRow, string>;
  media!: Table<MediaRow, string>;
  mediaBlobs!: Table<MediaBlobRow, string>;
  sync!: Table<SyncRow, string>;
  pickers!: Table<PickerRow, string>;
  toasts!: Table<ToastRow, number>;

  constructor(name = DB_NAME) {
    super(name);
    this.version(1).stores(SCHEMA_V1);
    // v2: who wrote a message is indexed with its lane and time, so an unread count reads keys only
    // (models/messages.ts unreadCount), never the rows. IndexedDB builds the index from the rows.
    this.version(2).stores({
      messages: '&message_id, [lane+ts], [lane+role+ts], client_id, turn, status',
    });
    // Rows are checked as they are read: a broken one is repaired, never handed to a screen as it is.
    this.messages.hook('reading', repairMessage);
    this.channels.hook('reading', repairChannel);
    this.lanes.hook('reading', repairLane);
    this.activity.hook('reading', repairActivity);
    this.media.hook('reading', repairMedia);
    this.pickers.hook('reading', repairPicker);
    this.toasts.hook('reading', repairToast);
  }
}
