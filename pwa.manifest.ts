// The web app manifest (install sheet, icons, shortcuts, share target). vite-plugin-pwa writes it
// as manifest.webmanifest at build time.
import type { ManifestOptions } from 'vite-plugin-pwa';

export const manifest: Partial<ManifestOptions> = {
  id: '/',
  name: 'Iris — your Hermes agent',
  short_name: 'Iris',
  description: 'Chat with your own Hermes agent: streaming replies, tools, approvals, and your history offline.',
  start_url: '/#/',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  // Light values; the page's <meta name="theme-color" media=…> pair switches the bar colour for dark mode.
  theme_color: '#4b3fd1',
  background_color: '#f6f7f9',
  categories: ['productivity', 'utilities'],
  icons: [
    { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/icons/maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
    { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    { src: '/icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
  ],
  screenshots: [
    {
      src: '/screenshots/phone.png',
      sizes: '824x1830',
      type: 'image/png',
      form_factor: 'narrow',
      label: 'A conversation with tools and reasoning',
    },
    {
      src: '/screenshots/desktop.png',
      sizes: '1440x900',
      type: 'image/png',
      form_factor: 'wide',
      label: 'Channels and a conversation side by side',
    },
  ],
  shortcuts: [
    {
      name: 'New message',
      short_name: 'New',
      url: '/#/?compose=1',
      icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }],
    },
    {
      name: 'Search',
      short_name: 'Search',
      url: '/#/search',
      icons: [{ src: '/icons/icon-192.png', sizes: '192x192' }],
    },
  ],
  share_target: {
    action: '/share-target',
    method: 'POST',
    enctype: 'multipart/form-data',
    params: {
      title: 'title',
      text: 'text',
      url: 'url',
      files: [{ name: 'files', accept: ['image/*', 'audio/*', 'video/*', 'application/pdf', 'text/*'] }],
    },
  },
};
