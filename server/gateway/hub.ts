// Live sockets and delivery. Every non-coalescable frame a device should get goes into its outbox
// (even when it is live, spec README §8), then to each of its live sockets, carrying that outbox
// entry's cursor (§16). A requester's own copy carries the request id; every other copy, and the
// outbox copy, carries none.
import { COALESCABLE_TYPES, encodeFrame, type ServerFrame } from '../../src/protocol';
import type { Devices, OutboxEntry } from './devices';
import type { Peer } from './peer';
import { quirkFrames, quirkReplyId, type GatewayQuirks } from './quirks';

export interface EmitOptions {
  /** Deliver only to these devices (default: every known device). */
  only?: string[];
  /** Deliver to every device but this one. */
  except?: string;
  /** The request this frame answers: that socket's copy carries the id. */
  reply?: { peer: Peer; id?: number };
}

const coalescable: ReadonlySet<string> = new Set(COALESCABLE_TYPES);

export class Hub {
  private readonly peers = new Set<Peer>();

  constructor(
    private readonly devices: Devices,
    private readonly quirks?: GatewayQuirks,
  ) {}

  add(peer: Peer): void {
    this.peers.add(peer);
  }

  remove(peer: Peer): void {
    this.peers.delete(peer);
  }

  count(): number {
    return this.peers.size;
  }

  isLive(deviceId: string): boolean {
    for (const p of this.peers) if (p.deviceId === deviceId) return true;
    return false;
  }

  /** Send to every live socket now and keep no outbox copy: for state that a later hello restates (status). */
  live(frame: ServerFrame): void {
    const encoded = encodeFrame(frame);
    for (const peer of this.peers) peer.sendEncoded(encoded, false);
  }

  emit(frame: ServerFrame, opts: EmitOptions = {}): void {
    const reply = opts.reply && { ...opts.reply, id: quirkReplyId(frame.type, opts.reply.id, this.quirks) };
    for (const f of quirkFrames(frame, this.quirks)) this.emitOne(f, { ...opts, ...(reply && { reply }) });
  }

  private emitOne(frame: ServerFrame, opts: EmitOptions): void {
    const { id: _id, ...event } = frame;
    const encoded = encodeFrame(event);
    const isCoalescable = coalescable.has(frame.type);
    const targets = new Set(opts.only ?? this.devices.ids());
    if (opts.except !== undefined) targets.delete(opts.except);
    /** Per device, the outbox entry: its copy carries that cursor. */
    const outboxed = new Map<string, OutboxEntry>();
    if (!isCoalescable) {
      for (const deviceId of targets) {
        const entry = this.devices.append(deviceId, event);
        if (entry) outboxed.set(deviceId, entry);
      }
    }
    const replyPeer = opts.reply?.peer;
    for (const peer of this.peers) {
      if (peer === replyPeer) continue;
      if (targets.has(peer.deviceId)) peer.sendEncoded(outboxed.get(peer.deviceId)?.frame ?? encoded, isCoalescable);
    }
    if (replyPeer) {
      const entry = targets.has(replyPeer.deviceId) ? outboxed.get(replyPeer.deviceId) : undefined;
      const withId =
        opts.reply?.id !== undefined
          ? encodeFrame({ ...event, id: opts.reply.id, ...(entry && { cursor: entry.cursor }) })
          : (entry?.frame ?? encoded);
      replyPeer.sendEncoded(withId, isCoalescable);
    }
  }
}
