// A page (or the app's frame) loaded on demand: if its code cannot be loaded, the page itself says so,
// with a button to try again, and tries again by itself once the browser is back online. Without a
// server behind it, a page the service worker does not serve yet otherwise stayed blank.
import { ErrorBoundary, type Component } from 'solid-js';
import {
  PART_UNAVAILABLE,
  PartUnavailable,
  type ComponentProps,
  lazyUnavailable,
  retryWhenOnline,
} from './partUnavailable';
import './lazyPage.css';

export type LazyPage<P extends ComponentProps> = Component<P> & { preload(): Promise<void> };

function PageUnavailable(props: { retry: () => void }) {
  // eslint-disable-next-line solid/reactivity -- a handler of the window's online event
  retryWhenOnline(() => props.retry());
  return (
    <div class="page-unavailable" role="alert">
      <p>{PART_UNAVAILABLE}</p>
      <button type="button" class="button" onClick={() => props.retry()}>
        Try again
      </button>
    </div>
  );
}

export function lazyPage<P extends ComponentProps>(load: () => Promise<Component<P>>): LazyPage<P> {
  const Page = lazyUnavailable(load);
  const Shown = (props: P) => (
    <ErrorBoundary
      fallback={(error: unknown, reset: () => void) => {
        if (!(error instanceof PartUnavailable)) throw error; // the page's own fault: not ours to word
        return <PageUnavailable retry={reset} />;
      }}
    >
      <Page {...props} />
    </ErrorBoundary>
  );
  return Object.assign(Shown, {
    // A failed preload is left to the page's first render, which says so.
    preload: () =>
      Page.preload().then(
        () => undefined,
        () => undefined,
      ),
  });
}
