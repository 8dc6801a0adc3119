// Waking devices (spec README §13): a device with no live socket is pushed for notifications and new
// final assistant messages; approval, clarify and cron are pushed even to live devices. The sink is
// called off the request path and whatever it throws is logged, never propagated.
import { HIGH_PRIORITY_NOTIF_KINDS } from '../../src/protocol';
import type { Devices } from './devices';
import type { Hub } from './hub';
import type { PushPayload, PushSink, PushTarget } from './types';

const highPriority: ReadonlySet<string> = new Set(HIGH_PRIORITY_NOTIF_KINDS);

export class PushDispatcher {
  constructor(
    private readonly sink: PushSink | undefined,
    private readonly devices: Devices,
    private readonly hub: Hub,
    private readonly log: (line: string) => void,
  ) {}

  notify(payload: PushPayload): void {
    if (!this.sink) return;
    const always = highPriority.has(payload.kind);
    for (const device of this.devices.list()) {
      const target = { ...device.target };
      if (!reachable(target)) continue;
      if (!always && this.hub.isLive(device.device_id)) continue;
      setImmediate(() => {
        try {
          this.sink!.send(target, payload);
        } catch (err) {
          this.log(`gateway: push sink failed: ${(err as Error).message}`);
        }
      });
    }
  }
}

/** Mode 'none', or a mode without the address it needs, means the device cannot be woken. */
function reachable(t: PushTarget): boolean {
  if (t.mode === 'webpush') return t.webpush !== undefined;
  if (t.mode === 'fcm') return t.fcm_token !== undefined;
  if (t.mode === 'ntfy') return t.ntfy_topic !== undefined;
  return false;
}
