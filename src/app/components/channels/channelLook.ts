// Channel icons and colours. Both come from the gateway (untrusted): an icon is only ever rendered
// as text, and a colour is only used when it is a plain hex colour.

export interface ColourChoice {
  name: string;
  value: string;
}

/** Swatches that carry white-or-dark text well enough in both themes (they sit behind the icon). */
export const COLOURS: readonly ColourChoice[] = [
  { name: 'Violet', value: '#7c6cf2' },
  { name: 'Blue', value: '#3b82f6' },
  { name: 'Teal', value: '#14b8a6' },
  { name: 'Green', value: '#22c55e' },
  { name: 'Amber', value: '#f59e0b' },
  { name: 'Orange', value: '#f97316' },
  { name: 'Red', value: '#ef4444' },
  { name: 'Pink', value: '#ec4899' },
  { name: 'Grey', value: '#8b93a1' },
];

export const SUGGESTED_ICONS: readonly string[] = [
  '💬',
  '🏠',
  '💼',
  '🧪',
  '📚',
  '✈️',
  '🛒',
  '🎵',
  '💡',
  '🛠️',
  '❤️',
  '⭐',
];

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The colour if it is a plain #rgb/#rrggbb, else undefined (never a url(), var() or expression). */
export function safeColor(value: unknown): string | undefined {
  return typeof value === 'string' && HEX.test(value) ? value : undefined;
}

/** The first few characters of what the user typed, as grapheme clusters so an emoji is not split. */
export function trimIcon(value: string, maxGraphemes = 2): string {
  const trimmed = value.trim();
  if (!trimmed) return '';
  const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter;
  if (!Segmenter) return [...trimmed].slice(0, maxGraphemes).join('').trim();
  const segments = [...new Segmenter(undefined, { granularity: 'grapheme' }).segment(trimmed)];
  return segments
    .slice(0, maxGraphemes)
    .map((s) => s.segment)
    .join('')
    .trim();
}

/** Readable text on a swatch: dark text on light colours, white on dark ones. */
export function textOn(hex: string): '#000000' | '#ffffff' {
  const full = hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
  const channel = (i: number) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return luminance > 0.179 ? '#000000' : '#ffffff';
}
