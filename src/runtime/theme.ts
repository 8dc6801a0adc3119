// The colour theme: follow the system (default), or force light or dark. The choice lives in the
// settings table; a copy in localStorage lets us set `data-theme` synchronously at start-up, before
// the first paint, since IndexedDB can only be read asynchronously. The local copy is written first
// and at once, so when both exist it is the newer: a reload right after a choice can outrun the
// database's write (an unload aborts it), and the database must not then bring back the old choice. The runtime builds one per window
// (`createTheme`); components read and set it through `useIris().theme`.
import type { IrisDB } from '../store/db';
import { getSetting, setSetting } from '../store/models/settings';

export type ThemeChoice = 'system' | 'light' | 'dark';

const THEME_CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];
const STORAGE_KEY = 'iris.theme';

// Must match --bg in src/app/styles/theme.css: the browser's bar colour follows the page.
const THEME_COLOR: Record<'light' | 'dark', string> = { light: '#f6f7f9', dark: '#15171c' };

function isThemeChoice(value: unknown): value is ThemeChoice {
  return typeof value === 'string' && (THEME_CHOICES as readonly string[]).includes(value);
}

/** Sets `data-theme` on <html> (absent = follow the system) and the browser's theme colour. */
function applyTheme(choice: ThemeChoice): void {
  if (typeof document === 'undefined') return;
  const root = document.documentElement;
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
  // With a forced theme, both media-specific theme-color metas must show that theme's colour.
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    const media = meta.getAttribute('media') ?? '';
    const forMedia: 'light' | 'dark' = media.includes('dark') ? 'dark' : 'light';
    meta.content = THEME_COLOR[choice === 'system' ? forMedia : choice];
  }
}

/** The local copy, or undefined when there is none (never chosen, cleared, or storage blocked). */
function readCachedChoice(): ThemeChoice | undefined {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return isThemeChoice(value) ? value : undefined;
  } catch {
    return undefined; // storage blocked: the DB copy is all there is
  }
}

function cacheChoice(choice: ThemeChoice): void {
  try {
    localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // storage blocked: the DB copy still persists it
  }
}

/** The window's theme, on its database's settings. */
export interface WindowTheme {
  /** Applies the local copy at once, then reconciles it with the DB copy (the runtime's start). */
  start(): void;
  /** The persisted choice. */
  get(): Promise<ThemeChoice>;
  /** Persists and applies a choice. */
  set(choice: ThemeChoice): Promise<void>;
}

export function createTheme(db: IrisDB): WindowTheme {
  return {
    start: () => initTheme(db),
    get: () => getTheme(db),
    set: (choice) => setTheme(db, choice),
  };
}

/** Applies the local copy at once, then reconciles it with the DB copy: the local one wins when both exist. */
function initTheme(db: IrisDB): void {
  applyTheme(readCachedChoice() ?? 'system');
  void getSetting(db, 'theme')
    .then(async (stored) => {
      const cached = readCachedChoice();
      if (cached !== undefined) {
        // The DB missed the last choice (its write was cut off by a reload): bring it up to date.
        if (stored !== cached) await setSetting(db, 'theme', cached);
        return;
      }
      // No local copy (cleared or blocked): the DB's choice, kept locally for the next start.
      if (!isThemeChoice(stored)) return;
      cacheChoice(stored);
      applyTheme(stored);
    })
    .catch((err: unknown) => console.warn('iris: could not reconcile the theme with the DB; the local one stays', err));
}

/** Persists and applies a theme choice. */
async function setTheme(db: IrisDB, choice: ThemeChoice): Promise<void> {
  cacheChoice(choice);
  applyTheme(choice);
  await setSetting(db, 'theme', choice);
}

/** Reads the persisted choice: the local copy when there is one (see the top of this file). */
async function getTheme(db: IrisDB): Promise<ThemeChoice> {
  const cached = readCachedChoice();
  if (cached !== undefined) return cached;
  const stored = await getSetting(db, 'theme');
  return isThemeChoice(stored) ? stored : 'system';
}

// Applied when this module is first evaluated, which is before the app renders its first frame.
applyTheme(readCachedChoice() ?? 'system');
