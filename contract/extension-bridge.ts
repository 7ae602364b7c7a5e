// The messages the app's Connect page and the browser extension exchange with window.postMessage
// (docs/extension.md). The extension listens only on the Pinboard origin it was set up for, and
// both sides post to that origin alone, so no other site hears them or can hand the extension a
// token. Plain types and guards: the extension's content script runs on every page and carries no
// schema library.

export const BRIDGE = {
  /** Page → extension: "are you there?" (the page may load before or after the content script). */
  ping: 'pinboard-extension:ping',
  /** Extension → page: present, and whom it is connected as on this server (null: not yet). */
  hello: 'pinboard-extension:hello',
  /** Page → extension: a new write token for the signed-in user, after they pressed Connect. */
  connect: 'pinboard-extension:connect',
  /** Extension → page: the token works (it asked the server who it is), or why not. */
  result: 'pinboard-extension:result',
} as const;

export type BridgePing = { type: typeof BRIDGE.ping };
export type BridgeHello = { type: typeof BRIDGE.hello; version: string; username: string | null };
export type BridgeConnect = { type: typeof BRIDGE.connect; token: string };
export type BridgeResult = { type: typeof BRIDGE.result; ok: true; username: string } | { type: typeof BRIDGE.result; ok: false; message: string };

/** A token as the server makes them: `pb_` and URL-safe characters. */
const TOKEN = /^pb_[A-Za-z0-9_-]{32,200}$/;

function record(data: unknown): Record<string, unknown> | null {
  return data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : null;
}

export function isBridgePing(data: unknown): data is BridgePing {
  return record(data)?.type === BRIDGE.ping;
}

export function isBridgeConnect(data: unknown): data is BridgeConnect {
  const r = record(data);
  return r?.type === BRIDGE.connect && typeof r.token === 'string' && TOKEN.test(r.token);
}

export function isBridgeHello(data: unknown): data is BridgeHello {
  const r = record(data);
  return r?.type === BRIDGE.hello && typeof r.version === 'string' && (r.username === null || typeof r.username === 'string');
}

export function isBridgeResult(data: unknown): data is BridgeResult {
  const r = record(data);
  if (r?.type !== BRIDGE.result) return false;
  return r.ok === true ? typeof r.username === 'string' : r.ok === false && typeof r.message === 'string';
}
