// Mounts a component as the app does: under the runtime's context and a router (in memory), into a
// DOM (the file runs in the `dom` vitest project, happy-dom). Queries read what a person sees.
import { MemoryRouter, Route, createMemoryHistory } from '@solidjs/router';
import type { JSX } from 'solid-js';
import { isServer, render } from 'solid-js/web';
import { IrisContext, type IrisRuntime } from '../runtime';

export interface Mounted {
  container: HTMLElement;
  unmount(): void;
}

export function mount(ui: () => JSX.Element, runtime: IrisRuntime, options: { path?: string } = {}): Mounted {
  // Solid's server build renders strings and never reacts: a test on it would see nothing update.
  if (isServer)
    throw new Error('mount: Solid resolved its server build (is this file a *.test.tsx in the dom project?)');
  const container = document.createElement('div');
  document.body.append(container);
  const history = createMemoryHistory();
  history.set({ value: options.path ?? '/' });
  const dispose = render(
    () => (
      <IrisContext.Provider value={runtime}>
        <MemoryRouter history={history} root={() => ui()}>
          <Route path="*" component={() => null} />
        </MemoryRouter>
      </IrisContext.Provider>
    ),
    container,
  );
  return {
    container,
    unmount() {
      dispose();
      container.remove();
    },
  };
}

/** The text a person reads in an element (whitespace collapsed). */
export function visibleText(element: Element | null | undefined): string {
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
}
