// A message list's context for a component test: a lane with nothing open, highlighted or paused.
import type { MessageListContextValue } from './listContext';

export function testMessageList(extra: Partial<MessageListContextValue> = {}): MessageListContextValue {
  return {
    lane: 'web:default',
    win: { rows: {}, activity: {}, media: {} },
    agentName: () => 'Iris demo agent',
    highlighted: () => undefined,
    agentTs: () => undefined,
    today: () => Date.now(),
    turnClosed: () => false,
    atStart: () => true,
    jumpTo: () => {},
    isOpen: () => false,
    toggleOpen: () => {},
    requestDelete: () => {},
    holdPlace: () => {},
    paused: () => undefined,
    ...extra,
  };
}
