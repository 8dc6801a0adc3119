// Injected before any script of a benchmarked page (app and bare alike, so both pay the same small
// cost): long tasks, IndexedDB writes, WebSocket frames as the page receives them, and the moment a
// text is first painted on screen. Built as a classic script (see lib/pages.ts).
import type { BenchProbe } from './benchApi';

const options = window.__benchOptions ?? {};
const probe: BenchProbe = {
  longTasks: [],
  idb: {
    writes: 0,
    byStore: {},
    readwriteTransactions: 0,
    writeTimes: [],
    readwriteTimes: [],
    syncCommits: [],
    mediaBlobCommits: [],
  },
  ws: { times: [], types: [], cursors: [], textBytes: 0, binaryFrames: 0, binaryBytes: 0, sentAt: {} },
  painted: {},
  keyPaints: [],
  waitPainted,
  scrollToTop,
};
window.__bench = probe;

// ---- long tasks --------------------------------------------------------------------------------
try {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longTasks?.push([entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: true });
} catch {
  // No long task timing: the harness reports the figure as not measured.
  probe.longTasks = null;
}

// ---- IndexedDB writes ----------------------------------------------------------------------------
const storeProto = IDBObjectStore.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
for (const method of ['put', 'add', 'delete', 'clear']) {
  const original = storeProto[method]!;
  storeProto[method] = function (this: IDBObjectStore, ...args: unknown[]) {
    probe.idb.writes++;
    probe.idb.writeTimes.push(performance.now());
    probe.idb.byStore[this.name] = (probe.idb.byStore[this.name] ?? 0) + 1;
    if (this.name === 'sync' && method === 'put') {
      const cursor = (args[0] as { cursor?: unknown } | undefined)?.cursor;
      this.transaction.addEventListener('complete', () => {
        if (typeof cursor === 'number') probe.idb.syncCommits.push([performance.now(), cursor]);
      });
    }
    if (this.name === 'mediaBlobs' && method === 'put') {
      this.transaction.addEventListener('complete', () => probe.idb.mediaBlobCommits.push(performance.now()));
    }
    return original.apply(this, args);
  };
}
const originalTransaction = IDBDatabase.prototype.transaction;
IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
  if (args[1] === 'readwrite') {
    probe.idb.readwriteTransactions++;
    probe.idb.readwriteTimes.push(performance.now());
  }
  return originalTransaction.apply(this, args);
} as IDBDatabase['transaction'];

// ---- WebSocket frames ----------------------------------------------------------------------------
const TYPE = /"type":"([^"]{1,40})"/;
// The envelope's cursor: before the payload's first brace (encodeFrame writes the envelope first).
const CURSOR = /^\{[^{]*"cursor":(\d+)/;
/** A replay batch (the gateway's extension) and where each of its frames starts. */
const BATCH = 'frames';
const FRAME_HEAD = '{"v":1,"type":"';
const NativeWebSocket = window.WebSocket;
function onMessage(event: MessageEvent): void {
  const now = performance.now();
  const log = probe.ws;
  const data: unknown = event.data;
  if (typeof data === 'string') {
    const head = data.slice(0, 240);
    const type = TYPE.exec(head.slice(0, 120))?.[1] ?? '?';
    if (type === BATCH) {
      // A replay batch: each frame in it is logged as arrived now, as if it had come alone (found by
      // its head, as the gateway writes it: no parse, which would add to the page's own work).
      for (let at = data.indexOf(FRAME_HEAD, 1); at >= 0; at = data.indexOf(FRAME_HEAD, at + 1)) {
        const inner = data.slice(at, at + 240);
        log.times.push(now);
        log.types.push(TYPE.exec(inner.slice(0, 120))?.[1] ?? '?');
        log.cursors.push(Number(CURSOR.exec(inner)?.[1] ?? -1));
      }
    } else {
      log.times.push(now);
      log.types.push(type);
      log.cursors.push(Number(CURSOR.exec(head)?.[1] ?? -1));
    }
    log.textBytes += data.length;
    if (log.needleAt === undefined && options.frameNeedle !== undefined && data.includes(options.frameNeedle))
      log.needleAt = now;
    return;
  }
  log.binaryFrames++;
  log.binaryBytes += data instanceof ArrayBuffer ? data.byteLength : data instanceof Blob ? data.size : 0;
  log.binaryFirstAt ??= now;
  log.binaryLastAt = now;
}
class InstrumentedWebSocket extends NativeWebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    // Registered first, so it runs before the page's own listeners: the arrival time of each frame.
    this.addEventListener('message', onMessage);
  }
  override send(data: Parameters<WebSocket['send']>[0]): void {
    if (typeof data === 'string') {
      const type = TYPE.exec(data.slice(0, 120))?.[1];
      if (type) probe.ws.sentAt[type] = performance.now();
    }
    super.send(data);
  }
}
window.WebSocket = InstrumentedWebSocket;

// ---- key → paint ----------------------------------------------------------------------------------
// A frame requested while the key's task runs comes after everything the key did in that task (a
// paste is the key's default action); the time is taken in a task right after that frame (painted).
addEventListener(
  'keydown',
  (event) => {
    const at = event.timeStamp;
    requestAnimationFrame(() => setTimeout(() => probe.keyPaints.push([at, performance.now()]), 0));
  },
  true,
);

// ---- painted text --------------------------------------------------------------------------------
const watches = new Map<string, Promise<number>>();

function findText(needle: string): Element | null {
  const found = document.evaluate(
    `//text()[contains(., ${JSON.stringify(needle)})]`,
    document,
    null,
    XPathResult.FIRST_ORDERED_NODE_TYPE,
    null,
  );
  return (found.singleNodeValue as Text | null)?.parentElement ?? null;
}

/** On screen: a box that overlaps the viewport and every clipping ancestor. */
function onScreen(element: Element): boolean {
  const box = element.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) return false;
  if (box.bottom <= 0 || box.top >= innerHeight || box.right <= 0 || box.left >= innerWidth) return false;
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    const overflow = getComputedStyle(parent).overflowY;
    if (overflow === 'visible') continue;
    const clip = parent.getBoundingClientRect();
    if (box.bottom <= clip.top || box.top >= clip.bottom) return false;
  }
  return true;
}

function waitPainted(needle: string): Promise<number> {
  const existing = watches.get(needle);
  if (existing) return existing;
  const watch = new Promise<number>((resolve) => {
    let scheduled = false;
    let done = false;
    // Checked at most once per frame, in the frame that will paint the change; the timestamp is taken
    // in a task right after that frame (after paint).
    const check = () => {
      scheduled = false;
      if (done) return;
      const element = findText(needle);
      if (!element || !onScreen(element)) return;
      done = true;
      observer.disconnect();
      removeEventListener('scroll', schedule, true);
      setTimeout(() => {
        probe.painted[needle] = performance.now();
        resolve(probe.painted[needle]);
      }, 0);
    };
    const schedule = () => {
      if (scheduled || done) return;
      scheduled = true;
      requestAnimationFrame(check);
    };
    const observer = new MutationObserver(schedule);
    observer.observe(document, { subtree: true, childList: true, characterData: true });
    addEventListener('scroll', schedule, true);
    schedule();
  });
  watches.set(needle, watch);
  return watch;
}

for (const needle of options.paintNeedles ?? []) void waitPainted(needle);

// ---- scrolling -----------------------------------------------------------------------------------
function nextFrame(): Promise<number> {
  return new Promise((resolve) => requestAnimationFrame(resolve));
}

async function scrollToTop(selector: string | null, stepFraction: number, maxFrames: number) {
  const element = selector ? document.querySelector(selector) : document.scrollingElement;
  if (!element) throw new Error(`nothing to scroll: ${selector ?? 'document'}`);
  const frameTimes: number[] = [];
  let last = await nextFrame();
  let steps = 0;
  let settled = 0;
  // Stop once the top has held for a few frames (rows measured above the reader may move it).
  while (steps < maxFrames && settled < 5) {
    element.scrollTop = Math.max(0, element.scrollTop - stepFraction * element.clientHeight);
    steps++;
    const now = await nextFrame();
    frameTimes.push(now - last);
    last = now;
    settled = element.scrollTop <= 0 ? settled + 1 : 0;
  }
  return { frameTimes, steps, reachedTop: element.scrollTop <= 0 };
}
