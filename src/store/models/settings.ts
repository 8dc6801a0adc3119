// Typed access to the settings table (one row per key). Values are checked on the way out, so a
// corrupted or foreign row reads as absent rather than crashing the UI.
import type { CommandInfo, ServerCaps } from '../../protocol';
import type { IrisDB } from '../db';
import { isObject } from '../../protocol/guards';
import { randomId } from '../../lib/randomId';

type Theme = 'system' | 'light' | 'dark';

interface GatewayStatus {
  /** A StatusState, or a newer state this client does not know yet (shown as it came). */
  state: string;
  session?: Record<string, unknown>;
}

export interface Settings {
  gatewayUrl: string;
  token: string;
  deviceId: string;
  deviceName: string;
  theme: Theme;
  /** The last `commands.catalog`, for slash autocomplete offline. */
  commands: CommandInfo[];
  /** The gateway's last `status` frame. */
  gatewayStatus: GatewayStatus;
  /** `hello.ack.server_caps` of the current gateway. */
  serverCaps: ServerCaps;
  /** The gateway has given its whole directory (a `channel.list`, or a `hello.ack` listing channels). */
  directoryListed: boolean;
}

export type SettingKey = keyof Settings;

const isString = (v: unknown): v is string => typeof v === 'string';
const checks: { [K in SettingKey]: (v: unknown) => v is Settings[K] } = {
  gatewayUrl: isString,
  token: isString,
  deviceId: isString,
  deviceName: isString,
  theme: (v): v is Theme => v === 'system' || v === 'light' || v === 'dark',
  commands: (v): v is CommandInfo[] => Array.isArray(v),
  gatewayStatus: (v): v is GatewayStatus => isObject(v) && typeof v.state === 'string',
  serverCaps: (v): v is ServerCaps => isObject(v),
  directoryListed: (v): v is boolean => typeof v === 'boolean',
};

export async function getSetting<K extends SettingKey>(db: IrisDB, key: K): Promise<Settings[K] | undefined> {
  const value = (await db.settings.get(key))?.value;
  return checks[key](value) ? value : undefined;
}

export async function setSetting<K extends SettingKey>(db: IrisDB, key: K, value: Settings[K]): Promise<void> {
  await db.settings.put({ key, value });
}

/**
 * A settings row's value exactly as stored, unchecked: for a reader that accepts more than one shape
 * and checks it itself (the gateway status, which older gateways sent as a bare string).
 */
export async function rawSetting(db: IrisDB, key: SettingKey): Promise<unknown> {
  return (await db.settings.get(key))?.value;
}

export async function deleteSetting(db: IrisDB, key: SettingKey): Promise<void> {
  await db.settings.delete(key);
}

/** This browser's device id (spec: hello.device_id): a UUID made the first time it is asked for. */
export async function getDeviceId(db: IrisDB): Promise<string> {
  return db.transaction('rw', db.settings, async () => {
    const stored = await getSetting(db, 'deviceId');
    if (stored) return stored;
    const made = randomId();
    await setSetting(db, 'deviceId', made);
    return made;
  });
}

/** Drafts live one row per lane (`draft:<lane>`), so typing in one lane never rewrites another's. */
export function draftKey(lane: string): string {
  return `draft:${lane}`;
}

export async function getDraft(db: IrisDB, lane: string): Promise<string> {
  const value = (await db.settings.get(draftKey(lane)))?.value;
  return typeof value === 'string' ? value : '';
}

/** Saves the composer's text for a lane; an empty draft removes the row. */
export async function setDraft(db: IrisDB, lane: string, text: string): Promise<void> {
  if (text === '') await db.settings.delete(draftKey(lane));
  else await db.settings.put({ key: draftKey(lane), value: text });
}

/** A long text kept collapsed in a lane's composer (`pasted:<lane>`), apart from the typed draft. */
function pastedKey(lane: string): string {
  return `pasted:${lane}`;
}

export async function getPastedDraft(db: IrisDB, lane: string): Promise<string> {
  const value = (await db.settings.get(pastedKey(lane)))?.value;
  return typeof value === 'string' ? value : '';
}

export async function setPastedDraft(db: IrisDB, lane: string, text: string): Promise<void> {
  if (text === '') await db.settings.delete(pastedKey(lane));
  else await db.settings.put({ key: pastedKey(lane), value: text });
}
