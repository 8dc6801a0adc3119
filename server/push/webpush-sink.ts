/**
 * The gateway's PushSink for devices in `webpush` mode (spec README §13): builds the small JSON payload and
 * queues it on a WebPushSender. `send` never throws and never waits.
 */
import { encodePushMessage, gatewayDelivery, gatewayPushMessage } from './payload';
import type { PushLog, PushPayload, PushSink, PushTarget } from './types';
import { createWebPushSender, type WebPushSender, type WebPushSenderOptions } from './webpush-sender';

export interface GoneSubscription {
  device_id: string;
  /** The endpoint the push service reported gone: delete the device's subscription only if it still is this one. */
  endpoint: string;
}

export type WebPushSinkOptions = {
  /** The push service said this subscription no longer exists (404/410): the gateway should forget it. */
  onGone: (gone: GoneSubscription) => void;
  log?: PushLog;
} & ({ sender: WebPushSender } | WebPushSenderOptions);

export interface WebPushSink extends PushSink {
  readonly sender: WebPushSender;
}

export function createWebPushSink(options: WebPushSinkOptions): WebPushSink {
  const log = options.log ?? (() => undefined);
  const sender = 'sender' in options ? options.sender : createWebPushSender(options);
  return {
    sender,
    send(target: PushTarget, payload: PushPayload): void {
      try {
        if (target?.mode !== 'webpush') return; // ntfy goes through ntfy publishing; fcm and none are not ours
        if (!target.webpush) {
          log('push.webpush.no_subscription', { to: target.device_id });
          return;
        }
        const endpoint = target.webpush.endpoint;
        const deviceId = target.device_id;
        sender.enqueue({
          subscription: target.webpush,
          json: encodePushMessage(gatewayPushMessage(payload)),
          delivery: gatewayDelivery(payload, sender.topicFor),
          label: deviceId,
          onGone: () => options.onGone({ device_id: deviceId, endpoint }),
        });
      } catch (err) {
        // The gateway must never fail because a push could not be prepared.
        log('push.webpush.send_failed', {
          to: target?.device_id,
          reason: err instanceof Error ? err.message : String(err),
        });
      }
    },
  };
}
