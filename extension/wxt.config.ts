// The extension's build (WXT: one source, Manifest V3 for Chromium and Firefox). `npm run
// build:extension` writes extension/dist/chromium/ and extension/dist/firefox/.
// The permissions are the fewest that do the job (docs/extension.md, "Permissions"):
// - host access to every http(s) site: the content script (hover Save, the picker, the page's image
//   list) runs on any page, and the background fetches an image (with the tab's own origin's
//   cookies when it is of that origin: docs/extension.md, "Which picture, which cookies…");
// - contextMenus: "Save to Pinboard" on images; storage: the server, the token, recent boards.
import { defineConfig } from 'wxt';
import { iconPaths, writeIcons } from './icons.ts';

export default defineConfig({
  root: import.meta.dirname,
  outDir: 'dist',
  outDirTemplate: '{{browser}}',
  // Every import is written out: the repository's typecheck reads these files as they are.
  imports: false,
  manifestVersion: 3,
  manifest: ({ browser }) => ({
    name: 'Pinboard',
    description: 'Save images from any page to your Pinboard, with the page they came from.',
    version: '0.1.0',
    icons: iconPaths,
    action: { default_icon: iconPaths, default_title: 'Save to Pinboard' },
    permissions: ['contextMenus', 'storage'],
    host_permissions: ['http://*/*', 'https://*/*'],
    // Firefox only (Chromium warns about keys it does not know).
    ...(browser === 'firefox' && {
      browser_specific_settings: {
        gecko: {
          id: 'pinboard-extension@pinboard.invalid',
          strict_min_version: '142.0',
          // Firefox asks the user to agree, at install, to what leaves the browser: page addresses
          // and pictures go to the user's own Pinboard server.
          data_collection_permissions: { required: ['browsingActivity', 'websiteContent'] },
        },
      },
    }),
  }),
  hooks: {
    'build:done': async (wxt) => {
      await writeIcons(wxt.config.outDir);
    },
  },
});
