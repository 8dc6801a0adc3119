// Everything the gateway remembers, in one place tests can read: channels, messages per lane,
// devices with their outboxes and push targets, media, and the demo agent's state.
import { AgentState } from './agent/state';
import { Conversations, type StoredMessage } from './conversations';
import { Devices } from './devices';
import { ChannelDirectory } from './directory';
import { MediaStore } from './mediastore';
import { Persistence } from './persistence';
import type { PushTarget } from './types';

export class GatewayStore {
  readonly persistence: Persistence;
  readonly channels: ChannelDirectory;
  readonly conversations: Conversations;
  readonly devices: Devices;
  readonly media: MediaStore;
  readonly agent: AgentState;

  constructor(dataDir: string | undefined, log: (line: string) => void, outboxLimit: number) {
    this.persistence = new Persistence(dataDir, log);
    this.channels = new ChannelDirectory(this.persistence);
    this.conversations = new Conversations(this.persistence);
    this.devices = new Devices(this.persistence, outboxLimit);
    this.media = new MediaStore(this.persistence);
    this.agent = new AgentState(this.persistence);
  }

  /** Final messages of a lane (thread_id ?? chat_id), oldest first. */
  messages(lane: string): StoredMessage[] {
    return this.conversations.messages(lane);
  }

  /** The newest outbox cursor of a device (0 if unknown). */
  cursor(deviceId: string): number {
    return this.devices.get(deviceId)?.cursor ?? 0;
  }

  pushTargets(): PushTarget[] {
    return this.devices.pushTargets();
  }

  mediaBytes(mediaId: string): Buffer | undefined {
    return this.media.bytes(mediaId);
  }

  /** Write everything pending now. */
  flush(): void {
    this.persistence.flushSync();
  }
}
