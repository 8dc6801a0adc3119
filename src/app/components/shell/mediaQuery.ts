// A CSS media query as a Solid signal.
import { createSignal, onCleanup, type Accessor } from 'solid-js';

export function createMediaQuery(query: string): Accessor<boolean> {
  const list = typeof matchMedia === 'function' ? matchMedia(query) : undefined;
  const [matches, setMatches] = createSignal(list?.matches ?? false);
  if (list) {
    const onChange = (event: MediaQueryListEvent) => setMatches(event.matches);
    list.addEventListener('change', onChange);
    onCleanup(() => list.removeEventListener('change', onChange));
  }
  return matches;
}

/** Two panes from this width on (keep in sync with the Shell.css breakpoint). */
export const DESKTOP_QUERY = '(min-width: 900px)';
