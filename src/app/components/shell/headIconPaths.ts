// The lane head's top-bar icons, drawn without Solid in the first file (LaneHead.ts). Apart from the
// other icons (iconPaths.ts), which a bundler keeps with this file's chunk when they share a module.
export const HEAD_ICON_PATHS = {
  menu: 'M4 6h16M4 12h16M4 18h16',
  search: 'M11 4a7 7 0 1 0 0 14a7 7 0 1 0 0-14zM20 20l-4-4',
  settings:
    'M12 9a3 3 0 1 0 0 6a3 3 0 1 0 0-6zM19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z',
} as const;

/** A sent message's mark (filled, 14 px tall): DeliveryState's and the lane head's. */
export const DELIVERY_ICONS = {
  pending: {
    width: 14,
    d: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 18a8 8 0 1 1 0-16 8 8 0 0 1 0 16zm.5-13H11v6l5.2 3.2.8-1.3-4.5-2.7V7z',
  },
  sent: { width: 14, d: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2z' },
  read: {
    width: 20,
    d: 'M0.4 13.4 6 19l1.4-1.4L1.8 12 .4 13.4zM22.2 5.6 11.6 16.2 7.4 12 6 13.4l5.6 5.6 12-12-1.4-1.4zM18 7l-1.4-1.4-6.3 6.3 1.4 1.4L18 7z',
  },
} as const;

/** The chevron after each word of a reply's turn line (filled): TurnSummary's and the lane head's. */
export const TURN_CHEVRON_PATH = 'M9.3 6.3 7.9 7.7l4.3 4.3-4.3 4.3 1.4 1.4 5.7-5.7z';
