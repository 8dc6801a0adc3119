// A part of a screen loaded on demand (a dialog, the media view, the composer's chips): if its code
// cannot be loaded, a toast says so (once per attempt, however many places show the part), a dialog is
// closed so that the person's next try loads it again, and every place loads it again once online.
import { createEffect, on, onMount, type Component } from 'solid-js';
import { useIris } from '../../runtime';
import { showErrorToast } from '../components/status/toastWrites';
import {
  PartUnavailable,
  lazyOrUnavailable,
  retryWhenOnline,
  type ComponentProps,
  type LazyLoaded,
} from './partUnavailable';

interface LazyPartOptions<P> {
  /** The toast's title: what the person was doing (default "Could not show that"). */
  title?: string;
  /** Called when the part could not be loaded: a dialog closes, so the next try opens (and loads) it again. */
  onUnavailable?: (props: P) => void;
  /**
   * For a part that stays mounted between uses (a dialog kept for its closing): its props say it is
   * asked for again (this turns truthy), and it loads again then. Others load again when next mounted.
   */
  askedAgain?: (props: P) => unknown;
}

export function lazyPart<P extends ComponentProps>(
  load: () => Promise<Component<P>>,
  options: LazyPartOptions<P> = {},
): LazyLoaded<P> {
  /** The failures already told: every place showing the part fails with the same one. */
  const told = new WeakSet<PartUnavailable>();

  function Unavailable(props: { error: PartUnavailable; retry: () => void; part: P }) {
    const { db } = useIris();
    onMount(() => {
      if (!told.has(props.error)) {
        told.add(props.error);
        showErrorToast(db, options.title ?? 'Could not show that', props.error);
      }
      options.onUnavailable?.(props.part);
    });
    // eslint-disable-next-line solid/reactivity -- a handler of the window's online event
    retryWhenOnline(() => props.retry());
    const askedAgain = options.askedAgain;
    if (askedAgain)
      createEffect(
        on(
          () => !!askedAgain(props.part),
          (asked) => asked && props.retry(),
          { defer: true },
        ),
      );
    return null;
  }

  return lazyOrUnavailable(load, (error, retry, props) => <Unavailable error={error} retry={retry} part={props} />);
}
