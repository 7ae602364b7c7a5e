import type { IncomingMessage } from 'node:http';

/** Express's compiled `trust proxy` setting: whether the peer at `address` (hop `hop`) is a trusted proxy. */
export type TrustProxy = (address: string, hop: number) => boolean;

export interface OriginPolicy {
  /** PUBLIC_ORIGIN: the origins browsers use to reach the site (empty: derive from Host). */
  publicOrigins: string[];
  trustProxy: TrustProxy;
}

/**
 * Whether a browser request's Origin is our own site (docs/operations.md). With PUBLIC_ORIGIN set, it must be
 * one of those; otherwise it must name the host the request was sent to — as forwarded by the load
 * balancer when the connecting peer is a trusted proxy — so an instance behind a balancer accepts
 * the public origin rather than its own port. Requests without Origin come from non-browser
 * clients, which cross-site attacks cannot use.
 */
export function isAllowedOrigin(req: IncomingMessage, policy: OriginPolicy): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (policy.publicOrigins.length > 0) return policy.publicOrigins.includes(parsed.origin);
  const host = requestHost(req, policy);
  return host !== undefined && parsed.host === host;
}

/** The host the request was sent to: as forwarded by a trusted proxy, else its own Host header. */
function requestHost(req: IncomingMessage, policy: OriginPolicy): string | undefined {
  const trusted = policy.trustProxy(req.socket.remoteAddress ?? '', 0);
  const forwarded = trusted ? req.headers['x-forwarded-host'] : undefined;
  return (typeof forwarded === 'string' ? forwarded.split(',')[0]?.trim() : undefined) ?? req.headers.host;
}

/** Every host name (with port) this site is reached under, as far as this request tells. */
export function ownHosts(req: IncomingMessage, policy: OriginPolicy): string[] {
  const hosts = policy.publicOrigins.map((origin) => new URL(origin).host);
  const host = requestHost(req, policy);
  if (host) hosts.push(host);
  return hosts;
}

/** A host as a CSP source may name it: a forged Host header must not add directives. */
const PLAIN_HOST = /^[A-Za-z0-9.-]+(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?$/;

/**
 * What the page may connect to besides 'self' (CSP connect-src): the configured public origins and
 * their WebSocket origins; without them, the WebSocket of the host the page was loaded from. Some
 * browsers do not count ws: and wss: as 'self', so the socket's origin is named; never a bare
 * `ws:`/`wss:`, which would let a script send data to any host.
 */
export function connectSources(req: IncomingMessage, policy: OriginPolicy): string[] {
  if (policy.publicOrigins.length > 0) {
    return policy.publicOrigins.flatMap((origin) => [origin, origin.replace(/^http/, 'ws')]);
  }
  const host = requestHost(req, policy);
  return host !== undefined && PLAIN_HOST.test(host) ? [`ws://${host}`, `wss://${host}`] : [];
}
