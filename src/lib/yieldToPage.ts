// A task boundary for long work on the main thread: the page paints and handles input before it goes on.

/** Resolves in a new task: `scheduler.yield()` where the browser has it (it resumes ahead of other tasks), else a timeout. */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
