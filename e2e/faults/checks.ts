// The verdict of one fault run, against the gateway's own store (issue 9): every user message stored
// exactly once and in order; every final assistant message in each app DB exactly once with its
// final text; nothing pending, streaming or queued; the sync cursor never moved backwards, and once
// settled it has caught up with the gateway's newest (the live cursor, spec README §16).
import type { AppState } from './app';
import type { GatewaySnapshot } from './gateway-worker';

export interface Verdict {
  lost: number;
  duplicated: number;
  stuck: number;
  outOfOrder: number;
  cursorBack: number;
  problems: string[];
}

export interface DeviceEvidence {
  name: string;
  state: AppState;
  /** Cursor samples taken during the run, oldest first (per gateway URL). */
  cursorSamples: number[];
  /** Messages this device's person typed, in the order they pressed Send. */
  typed: string[];
  /** Whether this device's DB must hold the whole lane (false for a device that only sends). */
  mirrorsLane: boolean;
}

export interface UploadExpectation {
  text: string;
  size: number;
  sha256: string;
}

export function emptyVerdict(): Verdict {
  return { lost: 0, duplicated: 0, stuck: 0, outOfOrder: 0, cursorBack: 0, problems: [] };
}

export function isClean(v: Verdict): boolean {
  return v.lost + v.duplicated + v.stuck + v.outOfOrder + v.cursorBack === 0;
}

const short = (text: string) => JSON.stringify(text.length > 60 ? text.slice(0, 57) + '…' : text);

export function judge(
  lane: string,
  gateway: GatewaySnapshot,
  devices: DeviceEvidence[],
  upload?: UploadExpectation,
): Verdict {
  const v = emptyVerdict();
  const stored = gateway.messages[lane] ?? [];
  const storedUser = stored.filter((m) => m.role === 'user');

  // 1. The gateway: each typed message exactly once, in the order each person sent them.
  for (const device of devices) {
    const positions: number[] = [];
    for (const text of device.typed) {
      const hits = storedUser.filter((m) => m.text === text);
      if (hits.length === 0) {
        v.lost++;
        v.problems.push(`${device.name}: the gateway never stored ${short(text)}`);
      } else {
        if (hits.length > 1) {
          v.duplicated += hits.length - 1;
          v.problems.push(`${device.name}: the gateway stored ${short(text)} ${hits.length} times`);
        }
        positions.push(storedUser.indexOf(hits[0]!));
      }
    }
    for (let i = 1; i < positions.length; i++) {
      if (positions[i]! < positions[i - 1]!) {
        v.outOfOrder++;
        v.problems.push(`${device.name}: the gateway stored the messages out of the order they were sent`);
        break;
      }
    }
  }

  // 2. Each app DB against the gateway.
  const storedIds = new Set(stored.map((m) => m.message_id));
  const typedAll = new Set(devices.flatMap((d) => d.typed));
  for (const device of devices) {
    const rows = device.state.messages.filter((m) => m.lane === lane);
    const byId = new Map(rows.map((m) => [m.message_id, m]));
    if (device.mirrorsLane) {
      for (const m of stored.filter((s) => s.role === 'assistant')) {
        const row = byId.get(m.message_id);
        if (!row) {
          v.lost++;
          v.problems.push(`${device.name}: assistant message ${m.message_id} is missing from the app DB`);
        } else if (row.text !== m.text || row.status !== 'final') {
          v.lost++;
          v.problems.push(
            `${device.name}: assistant message ${m.message_id} is ${row.status} with ${short(row.text)} instead of final ${short(m.text)}`,
          );
        }
      }
    }
    // Every typed message shows once (a pending copy next to its echo would be a duplicate).
    const mustShow = device.mirrorsLane ? typedAll : new Set(device.typed);
    for (const text of mustShow) {
      const copies = rows.filter((m) => m.role === 'user' && m.text === text);
      if (copies.length > 1) {
        v.duplicated += copies.length - 1;
        v.problems.push(`${device.name}: ${short(text)} shows ${copies.length} times in the app`);
      } else if (copies.length === 0 && storedUser.some((m) => m.text === text)) {
        v.lost++;
        v.problems.push(`${device.name}: ${short(text)} is stored at the gateway but not in the app`);
      }
    }
    for (const row of rows) {
      if (!row.message_id.startsWith('local:') && !storedIds.has(row.message_id)) {
        v.duplicated++;
        v.problems.push(
          `${device.name}: the app holds ${row.role} message ${row.message_id} (${short(row.text)}) that the gateway does not`,
        );
      }
      if (row.status === 'pending' || row.status === 'streaming' || row.status === 'failed') {
        v.stuck++;
        v.problems.push(`${device.name}: ${row.role} message ${short(row.text)} is left ${row.status}`);
      }
    }
    if (device.state.outbox.length > 0) {
      v.stuck += device.state.outbox.length;
      v.problems.push(
        `${device.name}: ${device.state.outbox.length} send(s) left in the outbox (${device.state.outbox.map((o) => o.state).join(', ')})`,
      );
    }
    if (gateway.inflight === 0 && device.state.lanes.some((l) => l.lane === lane && l.busy)) {
      v.stuck++;
      v.problems.push(`${device.name}: the lane still shows the agent working, but the gateway runs no turn`);
    }

    // 3. The cursor never moved backwards, and never past what the gateway handed out.
    for (let i = 1; i < device.cursorSamples.length; i++) {
      if (device.cursorSamples[i]! < device.cursorSamples[i - 1]!) {
        v.cursorBack++;
        v.problems.push(
          `${device.name}: the sync cursor moved back from ${device.cursorSamples[i - 1]} to ${device.cursorSamples[i]}`,
        );
        break;
      }
    }
    const appCursor = Math.max(0, ...device.state.cursors.map((c) => c.cursor));
    const gatewayCursor = device.state.deviceId ? gateway.cursors[device.state.deviceId] : undefined;
    if (gatewayCursor !== undefined && appCursor > gatewayCursor) {
      v.cursorBack++;
      v.problems.push(`${device.name}: the app's cursor ${appCursor} is past the gateway's newest ${gatewayCursor}`);
    }
    // Live, the cursor follows every frame stored (spec README §16): once all is settled it is the newest.
    if (gatewayCursor !== undefined && appCursor < gatewayCursor) {
      v.stuck++;
      v.problems.push(
        `${device.name}: the app's cursor ${appCursor} stays behind the gateway's newest ${gatewayCursor} (what it has would come again)`,
      );
    }
  }

  // 4. An upload: the message carries the file, byte for byte.
  if (upload) {
    const message = storedUser.find((m) => m.text === upload.text);
    const ref = message?.media?.[0];
    const record = ref ? gateway.media.find((r) => r.media_id === ref.media_id) : undefined;
    if (message && (!record || record.size !== upload.size || record.sha256 !== upload.sha256)) {
      v.lost++;
      v.problems.push(
        `the upload reached the gateway ${record ? `as ${record.size} bytes with another sha256` : 'without its file'}`,
      );
    }
  }
  return v;
}

export function addVerdict(into: Verdict, v: Verdict): void {
  into.lost += v.lost;
  into.duplicated += v.duplicated;
  into.stuck += v.stuck;
  into.outOfOrder += v.outOfOrder;
  into.cursorBack += v.cursorBack;
  into.problems.push(...v.problems);
}
