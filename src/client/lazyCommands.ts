// The commands' code (commands.ts and the store models it writes through) loads apart from the first
// file: nothing before the first paint sends or asks, and every command is async already. Root preloads
// it as soon as a paired page shows, beside the app frame; a command before that waits for it.
import { PART_UNAVAILABLE } from '../lib/partUnavailable';
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

export interface LazyCommands extends Commands {
  /** Loads the commands' code now (a paired page, as it shows); resolves once tried, never rejects. */
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
        throw new Error(PART_UNAVAILABLE, { cause: error });
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
