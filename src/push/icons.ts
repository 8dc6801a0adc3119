// The images every Iris notification uses (public/icons, precached by the service worker).
export const NOTIFICATION_ICON = '/icons/icon-192.png';
export const NOTIFICATION_BADGE = '/icons/badge-96.png';
