import { isIP } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { addressPolicy, BlockedAddressError, guardedLookup, type AddressPolicy } from './address-policy.ts';

// The one HTTP client for URLs a user gave us (importing a pin's image, reading a page's pictures:
// docs/page-images.md). A user-chosen URL fetched from inside the deployment is a way in (SSRF): to
// the metadata service, to localhost's admin ports, to the private network. So: http/https on
// 80/443 only, every address a host resolves to checked and the connection made to exactly those
// addresses (no second lookup to rebind), IP literals checked as such, redirects followed by hand
// and each hop checked again, one deadline for everything, and a byte cap on the body.
// docs/images.md.

export interface SafeFetchOptions {
  /** Stop reading (and fail) past this many body bytes. */
  maxBytes: number;
  /** Default 5000. Covers the lookup and the TCP (and TLS) handshake of each connection. */
  connectTimeoutMs?: number;
  /** Default 15000, covers redirects and body. */
  totalTimeoutMs?: number;
  /**
   * Default 5000: how long a server may take to send its answer's headers, and at most between two
   * pieces of its body. A host that accepts and never answers costs this, not the whole deadline.
   */
  headersTimeoutMs?: number;
  /** Stops the fetch early (a job whose lease ran out, a server stopping). */
  signal?: AbortSignal;
  /** Default 3. */
  maxRedirects?: number;
  /** Tests and special deployments only: addresses (CIDR list) allowed despite being non-unicast, and extra allowed ports. */
  allow?: { cidrs?: string[]; ports?: number[] };
  /** The Accept header sent. Default `image/*`. */
  accept?: string;
  /**
   * The byte cap for the final answer's Content-Type, in place of `maxBytes`; with `truncate`, a
   * longer body is cut there (the result says `truncated`) instead of failing. Reading a web page
   * (backend/pages/page-images.ts) keeps the first 2 MB of HTML but takes an image whole.
   */
  limitFor?: (contentType: string | null) => { maxBytes: number; truncate?: boolean };
}

export type SafeFetchReason =
  | 'bad_url'
  | 'bad_scheme'
  | 'bad_port'
  | 'blocked_address'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'http_status'
  /** The name does not exist (DNS answered NXDOMAIN): a typo, or a site that is gone. */
  | 'unknown_host'
  | 'network';

export class SafeFetchError extends Error {
  readonly reason: SafeFetchReason;
  /** The final answer's status, for `http_status` (a caller may retry a 503 but not a 404). */
  readonly status: number | undefined;

  constructor(reason: SafeFetchReason, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SafeFetchError';
    this.reason = reason;
    this.status = options.status;
  }
}

export interface SafeFetchResult {
  bytes: Buffer;
  contentType: string | null;
  finalUrl: string;
  /** Set when `limitFor` let the body be cut: `bytes` are its first bytes only. */
  truncated?: true;
}

const DEFAULT_PORTS = [80, 443];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
// No cookies (undici keeps none), no credentials, nothing that identifies the user. Identity
// encoding: the byte cap then counts what is stored, and images are compressed already.
const HEADERS = { 'user-agent': 'Pinboard-image-import/1', accept: 'image/*', 'accept-encoding': 'identity' };

interface BodyLimit {
  maxBytes: number;
  truncate?: boolean;
}

interface Guard {
  policy: AddressPolicy;
  ports: ReadonlySet<number>;
}

/**
 * Why a URL would be refused before any connection is made (scheme, port, an IP literal or a
 * `localhost` name that the guard refuses), or undefined when only a fetch can tell. Pins use it
 * to keep such an address from ever being shown (pins.service.ts).
 */
export function refusedUpFront(url: string, allow: SafeFetchOptions['allow'] = {}): SafeFetchReason | undefined {
  const guard: Guard = { policy: addressPolicy(allow.cidrs), ports: new Set([...DEFAULT_PORTS, ...(allow.ports ?? [])]) };
  try {
    const checked = checkUrl(url, undefined, guard);
    // RFC 6761: localhost names are the loopback address, whatever DNS says.
    const host = checked.hostname.toLowerCase().replace(/\.$/, '');
    if ((host === 'localhost' || host.endsWith('.localhost')) && !guard.policy.allows('127.0.0.1')) return 'blocked_address';
    return undefined;
  } catch (error) {
    return error instanceof SafeFetchError ? error.reason : 'bad_url';
  }
}

/** Scheme, port and (for IP literals, which no lookup sees) address of one hop, before any connection. */
function checkUrl(text: string, base: URL | undefined, guard: Guard): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new SafeFetchError('bad_url', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError('bad_scheme', `scheme ${url.protocol} is not allowed`);
  }
  // Credentials in a URL would be sent on, and follow redirects to other hosts.
  if (url.username || url.password) throw new SafeFetchError('bad_url', 'URLs with credentials are not allowed');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  if (!guard.ports.has(port)) throw new SafeFetchError('bad_port', `port ${port} is not allowed`);
  // The URL parser has already turned 2130706433, 0x7f000001 and 0177.0.0.1 into 127.0.0.1, and
  // [::ffff:127.0.0.1] into [::ffff:7f00:1].
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (isIP(host) !== 0 && !guard.policy.allows(host)) {
    throw new SafeFetchError('blocked_address', `address ${host} is not allowed`);
  }
  return url;
}

/**
 * Stops reading a body we don't want. undici's body errors when destroyed unread; nothing awaits
 * it any more, so the error is dropped here instead of surfacing as an uncaught exception.
 */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | null {
  const value = headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

async function readCapped(response: Dispatcher.ResponseData, { maxBytes, truncate = false }: BodyLimit): Promise<{ bytes: Buffer; truncated: boolean }> {
  const declared = header(response.headers, 'content-length');
  if (!truncate && declared !== null && Number(declared) > maxBytes) {
    discard(response.body);
    throw new SafeFetchError('too_large', `the body is ${declared} bytes, over ${maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    if (total + chunk.length > maxBytes) {
      if (!truncate) throw new SafeFetchError('too_large', `the body is over ${maxBytes} bytes`);
      chunks.push(chunk.subarray(0, maxBytes - total));
      // The rest is never read.
      discard(response.body);
      return { bytes: Buffer.concat(chunks, maxBytes), truncated: true };
    }
    total += chunk.length;
    chunks.push(chunk);
  }
  return { bytes: Buffer.concat(chunks, total), truncated: false };
}

function findCause<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof type) return e;
    if (e instanceof AggregateError) {
      const inner = e.errors.find((item) => item instanceof type) as T | undefined;
      if (inner) return inner;
    }
  }
  return undefined;
}

/** The `code`s along an error's cause chain (undici wraps the lookup's error). */
function causeCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code) codes.push(code);
  }
  return codes;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** Whatever undici, net or dns threw, as a SafeFetchError. */
function toSafeFetchError(error: unknown, deadline: AbortSignal): SafeFetchError {
  if (error instanceof SafeFetchError) return error;
  const blocked = findCause(error, BlockedAddressError);
  if (blocked) return new SafeFetchError('blocked_address', blocked.message, { cause: error });
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  if (deadline.aborted || (code && TIMEOUT_CODES.has(code))) {
    return new SafeFetchError('timeout', 'the fetch took too long', { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  // getaddrinfo's "no such name"; EAI_AGAIN (the resolver did not answer) stays a network error.
  if (causeCodes(error).includes('ENOTFOUND')) return new SafeFetchError('unknown_host', `no such host: ${message}`, { cause: error });
  return new SafeFetchError('network', `network error: ${message}`, { cause: error });
}

export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const { maxBytes, connectTimeoutMs = 5000, totalTimeoutMs = 15_000, headersTimeoutMs = 5000, maxRedirects = 3 } = options;
  const policy = addressPolicy(options.allow?.cidrs);
  const guard: Guard = { policy, ports: new Set([...DEFAULT_PORTS, ...(options.allow?.ports ?? [])]) };
  const headers = options.accept === undefined ? HEADERS : { ...HEADERS, accept: options.accept };
  const timeout = AbortSignal.timeout(totalTimeoutMs);
  const deadline = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  // One agent per fetch: its lookup carries this fetch's policy, and closing it leaves no
  // connection behind. A proxy from the environment is never used (it would connect for us).
  const agent = new Agent({
    connect: { lookup: guardedLookup(policy), timeout: connectTimeoutMs },
    headersTimeout: headersTimeoutMs,
    bodyTimeout: headersTimeoutMs,
  });
  try {
    let target = checkUrl(url, undefined, guard);
    for (let redirects = 0; ; redirects++) {
      const response = await request(target, { method: 'GET', headers, dispatcher: agent, signal: deadline });
      const status = response.statusCode;
      if (status >= 200 && status < 300) {
        const contentType = header(response.headers, 'content-type');
        const { bytes, truncated } = await readCapped(response, options.limitFor?.(contentType) ?? { maxBytes });
        return { bytes, contentType, finalUrl: target.href, ...(truncated ? { truncated: true as const } : {}) };
      }
      discard(response.body);
      const location = header(response.headers, 'location');
      if (!REDIRECTS.has(status) || location === null) {
        throw new SafeFetchError('http_status', `the server answered ${status}`, { status });
      }
      if (redirects >= maxRedirects) throw new SafeFetchError('too_many_redirects', `more than ${maxRedirects} redirects`);
      target = checkUrl(location, target, guard);
    }
  } catch (error) {
    throw toSafeFetchError(error, deadline);
  } finally {
    // Ends any connection still open (a body we stopped reading, a server that never answered).
    await agent.destroy().catch(() => undefined);
  }
}
