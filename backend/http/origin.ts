import type { IncomingMessage } from 'node:http';

/**
 * Whether a browser request's Origin is our own site. With PUBLIC_ORIGIN set, it must be one of
 * those; otherwise it must name the host the request was sent to (as forwarded by a trusted load
 * balancer), so an instance behind a balancer accepts the public origin rather than its own port.
 * Requests without Origin come from non-browser clients, which cross-site attacks cannot use.
 */
export function isAllowedOrigin(req: IncomingMessage, options: { publicOrigins: string[]; trustProxy: boolean }): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (options.publicOrigins.length > 0) return options.publicOrigins.includes(parsed.origin);
  const forwarded = options.trustProxy ? req.headers['x-forwarded-host'] : undefined;
  const host = (typeof forwarded === 'string' ? forwarded.split(',')[0]?.trim() : undefined) ?? req.headers.host;
  return host !== undefined && parsed.host === host;
}
