// The paths of the app's line icons (Icon.tsx), the lane head's three among them.
import { HEAD_ICON_PATHS } from './headIconPaths';

export const ICON_PATHS = {
  ...HEAD_ICON_PATHS,
  plus: 'M12 5v14M5 12h14',
  close: 'M6 6l12 12M18 6L6 18',
  more: 'M12 5.5v.01M12 12v.01M12 18.5v.01',
  star: 'M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z',
  thread: 'M7 4v9a4 4 0 0 0 4 4h7M15 14l3 3-3 3',
  archive: 'M3 5h18v4H3zM5 9v10h14V9M10 13h4',
  back: 'M15 5l-7 7 7 7',
  home: 'M4 11l8-7 8 7M6 9.5V20h4.5v-6h3v6H18V9.5',
} as const;

export type IconName = keyof typeof ICON_PATHS;
