// The WebExtension API (Chromium's `chrome`, Firefox's `browser`) through WXT, typed.
// @wxt-dev/browser's entry imports its types from './gen' without a file extension, which the
// repository's NodeNext resolution cannot follow (they would all be `any`), so the types come
// from the generated file itself.
import type { Browser } from '@wxt-dev/browser/src/gen/index.js';
import { browser as wxtBrowser } from 'wxt/browser';

export type { Browser };
export const browser = wxtBrowser as unknown as typeof Browser;
