// Debounced draft saving: typing writes a lane's draft once the user pauses, and anything still
// waiting is written when the composer goes away or the page is hidden (a reload keeps the draft).

export interface DraftWriter {
  /** Remember `text` as the lane's draft; written after a pause. */
  set(lane: string, text: string): void;
  /** Write every waiting draft now. */
  flush(): Promise<void>;
  /** Forget the lane's draft now (sent). */
  clear(lane: string): Promise<void>;
}

export function createDraftWriter(save: (lane: string, text: string) => Promise<void>, delayMs = 400): DraftWriter {
  const waiting = new Map<string, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;

  const flush = async () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const entries = [...waiting];
    waiting.clear();
    await Promise.all(
      entries.map(([lane, text]) => save(lane, text).catch((e: unknown) => console.error('draft not saved', e))),
    );
  };

  return {
    set(lane, text) {
      waiting.set(lane, text);
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => void flush(), delayMs);
    },
    flush,
    async clear(lane) {
      waiting.delete(lane);
      await save(lane, '');
    },
  };
}

/** A writer for the whole page (a runtime's service): waiting drafts are written when the page is hidden. */
export interface PageDraftWriter extends DraftWriter {
  /** Stops listening to the page (the runtime stopped; tests make several). */
  stop(): void;
}

export function createPageDraftWriter(
  save: (lane: string, text: string) => Promise<void>,
  delayMs?: number,
): PageDraftWriter {
  const writer = createDraftWriter(save, delayMs);
  const onPageHide = () => void writer.flush();
  const onVisibility = () => {
    if (document.visibilityState === 'hidden') void writer.flush();
  };
  addEventListener('pagehide', onPageHide);
  document.addEventListener('visibilitychange', onVisibility);
  return {
    ...writer,
    stop() {
      removeEventListener('pagehide', onPageHide);
      document.removeEventListener('visibilitychange', onVisibility);
    },
  };
}
