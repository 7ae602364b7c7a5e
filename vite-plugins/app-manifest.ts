import { SHARE_FIELDS, SHARE_FILE_FIELD, SHARE_TARGET_PATH } from '../contract/share-target.ts';

/** The app's colours: its accent (the bar's logo, the buttons) and its page background (frontend/styles/app.css). */
export const THEME_COLOR = '#c8102e';
export const BACKGROUND_COLOR = '#ffffff';

/** The icon files the build writes, with their size in pixels and purpose (vite-plugins/app-icons.ts draws them). */
export const ICONS = [
  { file: 'icons/icon-192.png', size: 192, purpose: 'any' },
  { file: 'icons/icon-512.png', size: 512, purpose: 'any' },
  { file: 'icons/icon-maskable-512.png', size: 512, purpose: 'maskable' },
  { file: 'icons/apple-touch-icon.png', size: 180, purpose: 'apple' },
] as const;

/** The web app manifest (docs/installable-app.md), served at /manifest.webmanifest. */
export function appManifest() {
  return {
    name: 'Pinboard',
    short_name: 'Pinboard',
    description: 'Collect and share images on boards.',
    id: '/',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    // iOS takes its icon from <link rel="apple-touch-icon"> instead.
    icons: ICONS.filter((icon) => icon.purpose !== 'apple').map((icon) => ({ src: `/${icon.file}`, sizes: `${icon.size}x${icon.size}`, type: 'image/png', purpose: icon.purpose })),
    share_target: {
      action: SHARE_TARGET_PATH,
      method: 'POST',
      enctype: 'multipart/form-data',
      params: {
        ...Object.fromEntries(SHARE_FIELDS.map((field) => [field, field])),
        files: [{ name: SHARE_FILE_FIELD, accept: ['image/*'] }],
      },
    },
  };
}
