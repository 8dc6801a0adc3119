// A page (or the app's frame) loaded on demand: if its code cannot be loaded, the page itself says so,
// with a button to try again, and tries again by itself once the browser is back online. Without a
// server behind it, a page the service worker does not serve yet otherwise stayed blank.
import type { Component } from 'solid-js';
import { PART_UNAVAILABLE } from '../../lib/partUnavailable';
import { lazyOrUnavailable, retryWhenOnline, type ComponentProps, type LazyLoaded } from './partUnavailable';
import './lazyPage.css';

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

export function lazyPage<P extends ComponentProps>(load: () => Promise<Component<P>>): LazyLoaded<P> {
  return lazyOrUnavailable(load, (_error, retry) => <PageUnavailable retry={retry} />);
}
