// The commands' code (commands.ts and the store models it writes through) loads apart from the first
// file: nothing before the first paint sends or asks, and every command is async already. The lane
// preloads it as it opens; a command before that waits for it.
import type { IrisDB } from '../store/db';
import type { Commands } from './commands';
import type { Transport } from './transport';

const NAMES = [
  'send',
  'retry',
  'discard',
  'markRead',
  'stopReading',
  'stopAgent',
  'steer',
  'steerOrSend',
  'selectPicker',
  'createChannel',
  'renameChannel',
  'setDefault',
  'favorite',
  'setIcon',
  'archiveChannel',
  'deleteMessages',
  'search',
  'complete',
  'loadOlder',
  'loadNewest',
  'upload',
  'pull',
  'registerPush',
] as const satisfies readonly (keyof Commands)[];

// A command added to Commands and not listed above does not compile: it would be missing from the client.
type Unlisted = Exclude<keyof Commands, (typeof NAMES)[number]>;
const everyCommandListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyCommandListed;

/** Said when the commands' code cannot be loaded (the page's server gone, and no copy on this device). */
export const COMMANDS_UNAVAILABLE =
  'Iris could not load this part of its code from its server. Check the connection, then try again.';

export interface LazyCommands extends Commands {
  /** Loads the commands' code now (the lane, as it opens); resolves once loaded, never rejects. */
  preloadCommands(): Promise<void>;
}

export function lazyCommands(
  db: IrisDB,
  transport: () => Transport,
  code: () => Promise<typeof import('./commands')> = () => import('./commands'),
): LazyCommands {
  let loading: Promise<Commands> | undefined;
  const load = (): Promise<Commands> =>
    (loading ??= code().then(
      (module) => module.createCommands(db, transport),
      (error: unknown) => {
        loading = undefined; // the next command tries again
        console.warn('iris: could not load the commands', error);
        throw new Error(COMMANDS_UNAVAILABLE, { cause: error });
      },
    ));
  const commands = Object.fromEntries(
    NAMES.map((name) => [
      name,
      (...args: unknown[]) =>
        load().then((loaded) => (loaded[name] as (...given: unknown[]) => Promise<unknown>)(...args)),
    ]),
  ) as unknown as Commands;
  return {
    ...commands,
    preloadCommands: () =>
      load().then(
        () => undefined,
        () => undefined,
      ),
  };
}
