// pushsubscriptionchange: the push service replaced (or expired) our subscription. Subscribe again with
// the stored VAPID key, register the new one where pushes come from, and store it for every later hello.
import {
  fromBase64url,
  getPushRegistration,
  setPushRegistration,
  toWebPushSubscription,
} from '../../src/push/registration';
import type { WebPushSubscription } from '../../src/protocol';
import type { IrisDB } from '../../src/store/db';

export interface RenewDeps {
  db: IrisDB;
  /** `registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey})`. */
  subscribe(applicationServerKey: Uint8Array<ArrayBuffer>): Promise<{ toJSON(): unknown }>;
  relaySubscribe(topic: string, subscription: WebPushSubscription): Promise<void>;
  relayUnsubscribe(topic: string, endpoint: string): Promise<void>;
  /** Tells the gateway (webpush mode): a hello over the worker's own connection carries the new subscription. */
  tellGateway(db: IrisDB): Promise<unknown>;
}

export type RenewOutcome = 'renewed' | 'push-off' | 'unusable';

export async function renewSubscription(
  deps: RenewDeps,
  offered?: { toJSON(): unknown } | null,
): Promise<RenewOutcome> {
  const registration = await getPushRegistration(deps.db);
  if (!registration) return 'push-off';
  const fresh = offered ?? (await deps.subscribe(fromBase64url(registration.vapidKey)));
  const subscription = toWebPushSubscription(fresh.toJSON());
  if (!subscription) return 'unusable';
  const oldEndpoint = registration.subscription.endpoint;
  if (registration.mode === 'ntfy') {
    await deps.relaySubscribe(registration.topic!, subscription);
    if (oldEndpoint !== subscription.endpoint)
      await deps
        .relayUnsubscribe(registration.topic!, oldEndpoint)
        .catch((err: unknown) => console.warn('iris push: the relay kept an old subscription', err));
  }
  await setPushRegistration(deps.db, { ...registration, subscription });
  // The app's next hello would carry it too; telling the gateway now means no push is lost meanwhile.
  if (registration.mode === 'webpush') await deps.tellGateway(deps.db);
  return 'renewed';
}
