// What every row of one lane's message list shares: the lane, the window of rows, and list-level actions.
import { createContext, useContext, type Accessor } from 'solid-js';
import type { MessageRow } from '../../../store/schema';
import type { LaneWindow } from './laneWindow';

export interface MessageListContextValue {
  lane: string;
  win: LaneWindow;
  /** The agent's name, as its messages are signed (useAgentName; "Hermes" until known). */
  agentName: Accessor<string>;
  /** The message a search jump (or a quote) points at, highlighted for a moment. */
  highlighted: Accessor<string | undefined>;
  /** When the agent last wrote in the lane (a message of the person's before it has been read). */
  agentTs: Accessor<number | undefined>;
  /** Whether the lane's agent turn `turn` is over (so a tool of it can no longer be running). */
  turnClosed(turn: string): boolean;
  /** The start of the local day it is now (today.ts): what day lines say "Today" and "Yesterday" against. */
  today: Accessor<number>;
  /** Whether the oldest message of the lane is loaded (no older page to fetch). */
  atStart: Accessor<boolean>;
  /** Scrolls to a message, loading older pages as needed. */
  jumpTo(messageId: string): void;
  /**
   * Whether a part of a message the person opened (its tools, reasoning, details) is open, kept by the
   * list so it stays open while the row scrolls out of view and back, and while a turn's cards move
   * from the working line into its reply.
   */
  isOpen(key: string): boolean;
  toggleOpen(key: string): void;
  /** Asks the person to confirm, then deletes. */
  requestDelete(message: MessageRow): void;
  /**
   * The person opened more of a message (Show all): it grows below what they read, so the view stops
   * following the newest message (until they scroll back down to it).
   */
  holdPlace(): void;
  /**
   * The connection has been down a moment (createConnectionPause): what is shown going on (a reply
   * streaming, a tool running) says what it waits for instead of looking busy: these words, else nothing.
   */
  paused: Accessor<string | undefined>;
}

export const MessageListContext = createContext<MessageListContextValue>();

export function useMessageList(): MessageListContextValue {
  const value = useContext(MessageListContext);
  if (!value) throw new Error('useMessageList outside a MessageList');
  return value;
}
