// The title the top bar shows for a route that is not a lane.
const TITLES: Record<string, string> = {
  '/search': 'Search',
  '/settings': 'Settings',
  '/share': 'Share',
};

export function routeTitle(pathname: string): string {
  return TITLES[pathname.replace(/\/$/, '')] ?? 'Iris';
}
