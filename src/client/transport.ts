// How commands reach the gateway from any tab: directly through the session in the leader tab, or
// through the leader over the tab bus in the others. Both behave the same for the caller.
import type { ClientFrame, ServerFrame } from '../protocol';
import { ConnectionLostError } from '../net/errors';
import type { TabBus } from '../net/leader';
import type { GatewaySession } from '../net/session';
import type { UploadMeta } from '../net/transfers';

export interface Transport {
  /** A request with an answer; rejects when offline, on an `error` answer, or after its timeout. */
  request(frame: ClientFrame, timeoutMs?: number): Promise<ServerFrame>;
  /** A frame without an answer; rejects when offline. */
  notify(frame: ClientFrame): Promise<void>;
  upload(file: Blob, meta: UploadMeta): Promise<string>;
  pull(media_id: string): Promise<void>;
  /** A history page of a lane, stored in the DB before this resolves. */
  fetchHistory(lane: string, before?: string): Promise<ServerFrame>;
  /** The outbox gained a row (or a retry): the sender should drain. */
  outboxChanged(): void;
  /** Settings changed (pair/forget): the leader reconnects with them. */
  reconfigure(): Promise<void>;
  /** The person asks to try the gateway now: a connection waiting out its backoff tries at once. */
  retryNow(): void;
}

/** The leader tab: the session itself (or nothing yet when not paired). */
export function localTransport(session: () => GatewaySession | undefined, reconfigure: () => Promise<void>): Transport {
  const need = (): GatewaySession => {
    const s = session();
    if (!s) throw new ConnectionLostError('Not paired with a gateway.');
    return s;
  };
  return {
    request: async (frame, timeoutMs) => need().request(frame, timeoutMs === undefined ? undefined : { timeoutMs }),
    notify: async (frame) => need().notify(frame),
    upload: async (file, meta) => need().upload(file, meta),
    pull: async (media_id) => need().pull(media_id),
    fetchHistory: async (lane, before) => need().fetchHistory(lane, before),
    outboxChanged: () => session()?.sender.kick(),
    reconfigure,
    retryNow: () => session()?.connection.wake(),
  };
}

/** A follower tab: every call runs in the leader tab. Progress callbacks stay local (the DB row has progress). */
export function remoteTransport(bus: TabBus): Transport {
  return {
    request: (frame, timeoutMs) => bus.call('request', [frame, timeoutMs]) as Promise<ServerFrame>,
    notify: async (frame) => {
      await bus.call('notify', [frame]);
    },
    upload: (file, meta) => {
      const { onProgress: _local, ...wire } = meta;
      return bus.call('upload', [file, wire], false) as Promise<string>;
    },
    pull: async (media_id) => {
      await bus.call('pull', [media_id], false);
    },
    fetchHistory: (lane, before) => bus.call('fetchHistory', [lane, before]) as Promise<ServerFrame>,
    outboxChanged: () => bus.post({ t: 'outbox' }),
    retryNow: () => bus.post({ t: 'retry' }),
    reconfigure: async () => {
      await bus.call('reconfigure', []);
    },
  };
}

/** The leader's answer to a follower's call. */
export function serveTransport(local: Transport): (method: string, args: unknown[]) => Promise<unknown> {
  return async (method, args) => {
    switch (method) {
      case 'request':
        return local.request(args[0] as ClientFrame, args[1] as number | undefined);
      case 'notify':
        return local.notify(args[0] as ClientFrame);
      case 'upload':
        return local.upload(args[0] as Blob, args[1] as UploadMeta);
      case 'pull':
        return local.pull(args[0] as string);
      case 'fetchHistory':
        return local.fetchHistory(args[0] as string, args[1] as string | undefined);
      case 'reconfigure':
        return local.reconfigure();
      default:
        throw new Error(`Unknown call ${method}.`);
    }
  };
}
