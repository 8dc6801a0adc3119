// Parts of the app whose code loads on demand (a page, a dialog, the media view). A page the service
// worker does not serve yet (a first visit) that is cut off from its server before a part's code came
// cannot load that part. Solid's lazy component then rendered nothing and threw where nothing caught
// it: the part was missing, in silence. Here the failure carries words, and the part loads again later.
import { ErrorBoundary, lazy, onCleanup, type Component, type JSX } from 'solid-js';
import { PART_UNAVAILABLE } from '../../lib/partUnavailable';

/** What Solid's components take as props (its Component's own constraint). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Solid's own bound, so any props interface fits
export type ComponentProps = Record<string, any>;

/** A part's code could not be loaded (not a fault of the part itself). */
export class PartUnavailable extends Error {}

/** A part loaded on demand; `preload` fetches its code ahead (a failure is left to its first use, which says so). */
export type LazyLoaded<P extends ComponentProps> = Component<P> & { preload(): Promise<void> };

/**
 * Solid's lazy component over `load`, shown by `unavailable` when its code cannot be loaded; `retry`
 * renders it again, which loads it again. The part's own failures are left to whoever catches errors.
 */
export function lazyOrUnavailable<P extends ComponentProps>(
  load: () => Promise<Component<P>>,
  unavailable: (error: PartUnavailable, retry: () => void, props: P) => JSX.Element,
): LazyLoaded<P> {
  const Part = lazy(() =>
    load().then(
      (component) => ({ default: component }),
      (error: unknown) => {
        console.warn('iris: could not load a part of the app', error);
        throw new PartUnavailable(PART_UNAVAILABLE, { cause: error });
      },
    ),
  );
  const Shown = (props: P) => (
    <ErrorBoundary
      fallback={(error: unknown, reset: () => void) => {
        if (!(error instanceof PartUnavailable)) throw error; // the part's own fault: not ours to word
        return unavailable(error, reset, props);
      }}
    >
      <Part {...props} />
    </ErrorBoundary>
  );
  return Object.assign(Shown, {
    preload: () =>
      Part.preload().then(
        () => undefined,
        () => undefined,
      ),
  });
}

/** Calls `retry` when the browser is back online, until the caller's owner is disposed. */
export function retryWhenOnline(retry: () => void): void {
  globalThis.addEventListener?.('online', retry);
  onCleanup(() => globalThis.removeEventListener?.('online', retry));
}
