import type { PinList } from './pins.ts';
import type { User } from './users.ts';

// The home page's HTML (backend/http/client-page.ts) carries its visit's shuffle seed in
// <meta name="pinboard-home-seed"> and, in a JSON <script id="pinboard-home-first-page">, the first
// page of GET /api/pins/?order=shuffle&seed=S with that seed. The client's first home visit in that
// document adopts the seed and takes the page instead of fetching it (frontend/pages/home/visit.ts).
// When the server could not read the page, the HTML preloads that address instead.
export const HOME_SEED_META = 'pinboard-home-seed';
export const HOME_FIRST_PAGE_ID = 'pinboard-home-first-page';

/** The JSON of the first-page element. */
export interface HomeFirstPage {
  seed: number;
  page: PinList;
}

/**
 * How many of the first page's thumbnails the HTML preloads: a phone's first row (two columns).
 * Each is ~15–60 KB, and on a slow link every one shares the bandwidth with the script.
 */
export const HOME_PRELOADED_IMAGES = 2;

/**
 * Every page's HTML also carries the session check's answer (what GET /api/auth/ would say, in a
 * JSON <script id="pinboard-session">), so the layout shows the page without asking first
 * (frontend/api/auth.ts). Absent when the server could not read it: the client asks then.
 */
export const SESSION_DATA_ID = 'pinboard-session';

/** The JSON of the session element. */
export interface ServedSession {
  user: User | null;
}

/**
 * A pin's own address (/pins/42): its HTML's <html> element carries PIN_SHELL_CLASS, so the static
 * shell (frontend/components/grid/skeleton.ts) paints the pin page's skeleton, not the grid's, before
 * any script has run. Marked by the server rather than by an inline script: no script to allow in
 * the Content-Security-Policy.
 */
export const PIN_PAGE_PATH = /^\/pins\/\d+\/?$/;
export const PIN_SHELL_CLASS = 'shell-pin';
