// What the in-page instrumentation (instrument.ts, injected before any page script) records, as the
// harness reads it back with `page.evaluate(() => window.__bench…)`.

export interface InstrumentOptions {
  /** Texts to wait for on screen from the first moment of the page (see BenchProbe.painted). */
  paintNeedles?: string[];
  /** The first text frame containing this string gets its arrival time recorded (ws.needleAt). */
  frameNeedle?: string;
}

export interface SocketLog {
  /** Arrival (performance.now(), at the first `message` listener) and type of every text frame. */
  times: number[];
  types: string[];
  /** Each text frame's envelope `cursor` (spec README §16), or -1: an outboxed frame has one, a pong or a reply none. */
  cursors: number[];
  textBytes: number;
  binaryFrames: number;
  binaryBytes: number;
  binaryFirstAt?: number;
  binaryLastAt?: number;
  /** When the first frame containing InstrumentOptions.frameNeedle arrived. */
  needleAt?: number;
  /** When a frame of each type was last sent by the page (`sync`, `media.pull`, …). */
  sentAt: Record<string, number>;
}

export interface IdbLog {
  /** put/add/delete/clear calls on any object store. */
  writes: number;
  /** The same, per object store. */
  byStore: Record<string, number>;
  readwriteTransactions: number;
  /** performance.now() of each write call and of each readwrite transaction opened. */
  writeTimes: number[];
  readwriteTimes: number[];
  /** Commits of a transaction that wrote the `sync` table: [commit time, cursor written]. */
  syncCommits: [number, number][];
  /** Commit times of transactions that wrote the `mediaBlobs` table (a download stored). */
  mediaBlobCommits: number[];
}

export interface ScrollResult {
  /** requestAnimationFrame deltas while scrolling (ms). */
  frameTimes: number[];
  steps: number;
  reachedTop: boolean;
}

export interface BenchProbe {
  /** Long tasks (over 50 ms) on the main thread: [startTime, duration]; null without long task timing. */
  longTasks: [number, number][] | null;
  idb: IdbLog;
  ws: SocketLog;
  /** Every key pressed: [its event time, performance.now() just after the next frame was painted]. */
  keyPaints: [number, number][];
  /** needle → performance.now() just after the frame that first showed it on screen. */
  painted: Record<string, number>;
  /** Starts watching for a text (if not already) and resolves when it was painted. */
  waitPainted(needle: string): Promise<number>;
  /** Scrolls the element (or the page) up by `stepFraction` of its height per animation frame. */
  scrollToTop(selector: string | null, stepFraction: number, maxFrames: number): Promise<ScrollResult>;
}

declare global {
  interface Window {
    __bench: BenchProbe;
    __benchOptions?: InstrumentOptions;
  }
}
