// The hand-over from the lane head (Root.tsx, in the entry) to the lane (its own chunk): the message list
// says when it has placed its rows, and the head stays over it until then.
import { createContext, useContext } from 'solid-js';

/** Called by a lane's message list once its newest rows (or its emptiness) are on screen. */
export const LaneShownContext = createContext<(lane: string) => void>(() => {});

export const useLaneShown = (): ((lane: string) => void) => useContext(LaneShownContext);
