/** One file the worker keeps from its install on: the build's shell and every script and stylesheet. */
export interface PrecacheEntry {
  /** The file's path on this site ("/assets/LoginPage-3fa1c2.js"). */
  url: string;
  /** A hash of its content for a file whose name carries none (index.html); null when the name does. */
  revision: string | null;
}

/** What the build writes into sw.js (vite-plugins/installable-app.ts): the build's files and its version. */
export interface PrecacheManifest {
  /** A hash of every entry and revision: a new build with any change is a new version. */
  version: string;
  entries: PrecacheEntry[];
}

/** The shell that opens every route of the single-page app (the raw file: no session in it). */
export const SHELL_URL = '/index.html';
