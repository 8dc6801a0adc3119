// The Markdown pipeline (src/lib/markdown.ts: marked and DOMPurify) is the lane's largest code, so the
// lane's first paint does not wait for it: it loads beside that paint, and until it has arrived a
// message shows its text plainly (escaped: nothing from the gateway becomes HTML unsanitized).
import { createSignal } from 'solid-js';

type MarkdownModule = typeof import('../../../lib/markdown');

const [loaded, setLoaded] = createSignal<MarkdownModule>();
let loading: Promise<MarkdownModule> | undefined;

/** Starts loading the pipeline (once; again after a failed load) and resolves with it. */
export function loadMarkdown(): Promise<MarkdownModule> {
  loading ??= import('../../../lib/markdown').then(
    (module) => {
      setLoaded(() => module);
      // Its one-time costs (compiling marked's rules, DOMPurify's first run) are paid in idle time.
      module.warmUpMarkdown();
      return module;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The pipeline once it has loaded (a signal: a render reading it runs again then), starting its load. */
export function markdownModule(): MarkdownModule | undefined {
  const module = loaded();
  // A failed load (offline, the chunk not cached) leaves the text shown plainly, escaped; the next render asks again.
  if (!module) loadMarkdown().catch(() => undefined);
  return module;
}
