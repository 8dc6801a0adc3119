// The hello frame (spec README §3), the first a connection sends: the same from the app and the
// service worker, with how this device wants to be woken.
import type { HelloFrame, PushMode } from '../protocol';

/** How this device wants to be woken, repeated in every hello (spec README §13): caps.push and its address. */
export type PushHello = { push: PushMode } & Pick<HelloFrame['payload'], 'webpush' | 'ntfy_topic'>;

/** The hello frame: push details when given, the device's name only when known. */
export function helloFrame(
  who: { token: string; deviceId: string; deviceName?: string },
  push: PushHello | { push: PushMode },
): { type: 'hello'; payload: HelloFrame['payload'] } {
  const { webpush, ntfy_topic } = push as PushHello;
  return {
    type: 'hello',
    payload: {
      token: who.token,
      device_id: who.deviceId,
      ...(who.deviceName !== undefined && { device_name: who.deviceName }),
      caps: { min_protocol: 1, media: true, push: push.push, batches: true },
      ...(webpush && { webpush }),
      ...(ntfy_topic && { ntfy_topic }),
    },
  };
}
