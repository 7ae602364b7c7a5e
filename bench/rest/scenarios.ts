import type { Favorite } from '../../contract/favorites.ts';
import { BROWSER_ENCODINGS } from '../feed/load.ts';
import type { Fixture } from './fixture.ts';
import type { Step, Visitor } from './load.ts';

// What each scenario's visitors do, and the target for it. A visitor is one keep-alive
// connection; visitor i talks to instance i mod 2 (the baselines' two processes alike), so the
// load is split evenly over both. Every request says it takes gzip/br, as a browser's does
// (compression only starts above 1 KB, so it matters for pages alone).

/** A share of the Express hello world (reads), or of Postgres alone doing the same writes (pgbench). */
export type Target = { kind: 'express'; ratio: number } | { kind: 'pgbench'; ratio: number };

/** What the report needs to know of a row. */
export interface Described {
  name: string;
  label: string;
  /** 'pair': a unit is a favorite and its removal, counted when the removal answers 2xx. */
  unit: 'request' | 'pair';
  target?: Target;
}

/** A hello-world server's load: the same request loop on every connection. */
export interface Baseline extends Described {
  visitor(url: string): Visitor;
}

/** A scenario against the app. */
export interface Scenario extends Described {
  /** Reads are what --profile runs. */
  read: boolean;
  visitor(index: number, url: string, fixture: Fixture): Visitor;
}

export const PAGE_SIZE = 50;
const HEADERS = { 'accept-encoding': BROWSER_ENCODINGS };

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const get = (path: () => string): Step => ({ method: 'GET', next: () => ({ path: path() }) });
const signedIn = (fixture: Fixture, index: number): Record<string, string> => {
  const user = fixture.users[index % fixture.users.length];
  if (!user) throw new Error('no signed-in visitors were prepared');
  return Object.fromEntries(user.cookies);
};

const hello = (url: string): Visitor => ({ url, jar: false, headers: HEADERS, steps: [get(() => '/')] });

/** `name` is also the server's file: bench/rest/hello-<name>.ts. */
export const BASELINES: Baseline[] = [
  { name: 'node', label: 'node:http hello world', unit: 'request', visitor: hello },
  { name: 'express', label: 'Express 5 hello world (= 100 %)', unit: 'request', visitor: hello },
];

export const SCENARIOS: Scenario[] = [
  {
    name: 'anon-hot',
    label: 'anon pin, hot ids, no cookies',
    unit: 'request',
    read: true,
    target: { kind: 'express', ratio: 0.5 },
    visitor: (_i, url, f) => ({ url, jar: false, headers: HEADERS, steps: [get(() => `/api/pins/${pick(f.hotIds)}`)] }),
  },
  {
    name: 'anon-all',
    label: 'anon pin, any id, no cookies',
    unit: 'request',
    read: true,
    target: { kind: 'express', ratio: 0.5 },
    visitor: (_i, url, f) => ({ url, jar: false, headers: HEADERS, steps: [get(() => `/api/pins/${1 + Math.floor(Math.random() * f.pins)}`)] }),
  },
  {
    name: 'anon-jar',
    label: 'anon pin, hot ids, cookies kept',
    unit: 'request',
    read: true,
    target: { kind: 'express', ratio: 0.5 },
    visitor: (_i, url, f) => ({ url, jar: true, headers: HEADERS, steps: [get(() => `/api/pins/${pick(f.hotIds)}`)] }),
  },
  {
    name: 'signed-in',
    label: 'signed-in pin, hot ids',
    unit: 'request',
    read: true,
    target: { kind: 'express', ratio: 0.4 },
    visitor: (i, url, f) => ({ url, jar: true, cookies: signedIn(f, i), headers: HEADERS, steps: [get(() => `/api/pins/${pick(f.hotIds)}`)] }),
  },
  {
    name: 'page-newest',
    label: `${PAGE_SIZE}-pin page, newest, page 1`,
    unit: 'request',
    read: true,
    target: { kind: 'express', ratio: 0.2 },
    visitor: (_i, url) => ({ url, jar: true, headers: HEADERS, steps: [get(() => `/api/pins/?limit=${PAGE_SIZE}`)] }),
  },
  {
    name: 'page-deep',
    label: `${PAGE_SIZE}-pin page, newest, deeper (cursor)`,
    unit: 'request',
    read: true,
    target: { kind: 'express', ratio: 0.2 },
    visitor: (_i, url, f) => ({ url, jar: true, headers: HEADERS, steps: [get(() => `/api/pins/?limit=${PAGE_SIZE}&cursor=${encodeURIComponent(pick(f.deepCursors))}`)] }),
  },
  {
    name: 'comments',
    label: "a hot pin's comments",
    unit: 'request',
    read: true,
    visitor: (_i, url, f) => ({ url, jar: true, headers: HEADERS, steps: [get(() => `/api/comments/pins/${pick(f.commentedIds)}/comments`)] }),
  },
  {
    name: 'favorite-pair',
    label: 'favorite + unfavorite, own user (pairs)',
    unit: 'pair',
    read: false,
    target: { kind: 'pgbench', ratio: 0.6 },
    visitor: (i, url, f) => {
      // The favorite's id, from the 201, for the removal; none (e.g. a failed favorite) skips it.
      let favoriteId: number | undefined;
      return {
        url,
        jar: true,
        cookies: signedIn(f, i),
        headers: HEADERS,
        steps: [
          {
            method: 'POST',
            next: () => {
              favoriteId = undefined;
              return { path: '/api/favorites/', body: { pin_id: pick(f.hotIds) } };
            },
            onAnswer: ({ status, body }) => {
              if (status === 201) favoriteId = (JSON.parse(body) as Favorite).id;
            },
          },
          { method: 'DELETE', next: () => (favoriteId === undefined ? undefined : { path: `/api/favorites/${favoriteId}` }) },
        ],
      };
    },
  },
];
