// How components reach the window's runtime (the database, the client, its services): a Solid
// context, provided once at the top (App) with the runtime main.tsx built, as revoltchat/frontend's
// useClient(). A unit test mounts a component under a test runtime the same way (src/testing).
import { createContext, useContext } from 'solid-js';
import type { IrisRuntime } from './runtime';

export const IrisContext = createContext<IrisRuntime>();

/** The runtime of the component being created (call it in a component's or hook's body, not later). */
export function useIris(): IrisRuntime {
  const runtime = useContext(IrisContext);
  if (!runtime) throw new Error('useIris() outside <IrisContext.Provider>');
  return runtime;
}
