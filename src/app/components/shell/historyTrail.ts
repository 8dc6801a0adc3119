// Where the browser's Back would lead, for the top bar's own back arrow: following the arrow should
// be that Back (the entry popped), not a new entry, or the system Back afterwards returns to the page
// the person just left (a thread, Settings). The router stamps each history entry with its depth.

/** The app's path at each history depth seen in this page's life. */
const pathAtDepth = new Map<number, string>();

function depth(): number | undefined {
  const state = history.state as { _depth?: unknown } | null;
  return typeof state?._depth === 'number' ? state._depth : undefined;
}

/** Records the current entry's path (call on every route change). */
export function recordEntry(path: string): void {
  const at = depth();
  if (at !== undefined) pathAtDepth.set(at, path);
}

/**
 * Goes to `path`: back through history when the entry before this one is `path`, else in place of this
 * entry (a thread opened by itself replaced its channel's entry; its arrow must not add one after it).
 */
export function goBackTo(path: string, navigate: (path: string, options: { replace: boolean }) => void): void {
  const at = depth();
  if (at !== undefined && at > 0 && pathAtDepth.get(at - 1) === path) history.back();
  else navigate(path, { replace: true });
}
