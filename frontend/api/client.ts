// The one API helper every call goes through (docs/product.md §7): sends cookies, sends JSON, adds the
// anti-forgery header from the XSRF-TOKEN cookie on every call (logout, a GET, needs it too), and
// turns any answer with status 400 or above into an ApiError carrying the server's error shape.
import type { ErrorBody } from '../../contract/index.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  constructor(status: number, body: ErrorBody) {
    super(body.message || `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

/** Status 0 stands for "no answer at all" (network down, aborted). */
export const NETWORK_ERROR_STATUS = 0;
const UNREACHABLE = 'The server could not be reached.';

function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** The error shape of an answer (whatever it carried), with a generic message when it had none. */
export function toErrorBody(status: number, raw: unknown): ErrorBody {
  const body: ErrorBody = { message: `Request failed with status ${status}`, errors: [], fields: {} };
  if (raw && typeof raw === 'object') {
    const r = raw as Record<string, unknown>;
    if (typeof r.message === 'string') body.message = r.message;
    if (Array.isArray(r.errors)) body.errors = r.errors.filter((e): e is string => typeof e === 'string');
    if (r.fields && typeof r.fields === 'object') {
      for (const [key, value] of Object.entries(r.fields as Record<string, unknown>)) {
        if (typeof value === 'string') body.fields[key] = value;
      }
    }
  }
  return body;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface CallOptions {
  /** Makes a create safe to repeat (see `createOnce`). */
  idempotencyKey?: string;
  /** The request outlives the page (sent while it is being closed: a deferred delete). */
  keepalive?: boolean;
}

/** The anti-forgery header every call carries (read fresh: login and logout rotate the token). */
export function csrfHeaders(): Record<string, string> {
  const token = readCookie('XSRF-TOKEN');
  return token ? { 'X-XSRF-TOKEN': token } : {};
}

/** True for a 403 whose message says the anti-forgery token was refused. */
export function isCsrfRefusal(status: number, raw: unknown): boolean {
  return status === 403 && toErrorBody(403, raw).message.toLowerCase().includes('csrf');
}

/** A token rotated by another tab (login/logout elsewhere): one GET sets a fresh cookie. */
export async function refreshCsrfToken(): Promise<void> {
  await fetch('/api/auth/', { credentials: 'same-origin' });
}

/** The error of a call that got no answer at all. */
export function unreachable(): ApiError {
  return new ApiError(NETWORK_ERROR_STATUS, { message: UNREACHABLE, errors: [UNREACHABLE], fields: {} });
}

async function send(method: Method, path: string, body: unknown, options: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  if (method !== 'GET') headers['Content-Type'] = 'application/json';
  // On every call, GETs included: logout is a GET that the server refuses without it.
  Object.assign(headers, csrfHeaders());
  const init: RequestInit = { method, headers, credentials: 'same-origin' };
  if (body !== undefined) init.body = JSON.stringify(body);
  if (options.keepalive) init.keepalive = true;
  return fetch(path, init);
}

/**
 * Calls the API and resolves with the parsed JSON answer. Rejects with ApiError for any status of
 * 400 or above (status 0 when the server could not be reached).
 */
export async function api<T>(method: Method, path: string, body?: unknown, options: CallOptions = {}): Promise<T> {
  let response: Response;
  try {
    response = await send(method, path, body, options);
    // A token rotated by another tab (login/logout elsewhere) gives 403 with no valid token; one
    // GET refreshes the cookie, then the call is tried once more.
    if (response.status === 403 && method !== 'GET' && isCsrfRefusal(403, await readJson(response.clone()))) {
      await refreshCsrfToken();
      response = await send(method, path, body, options);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw unreachable();
  }
  const raw = await readJson(response);
  if (response.status >= 400) throw new ApiError(response.status, toErrorBody(response.status, raw));
  return raw as T;
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** 128 random bits as hex. (crypto.randomUUID exists only on https and localhost pages.) */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const RETRY_DELAYS_MS = [400, 1200];

/**
 * The answer never came, or came from something in front of the server that lost it (a load
 * balancer, an instance going away: 502–504): the write may or may not have been done, and the
 * same request with the same Idempotency-Key settles which.
 */
export function isLostAnswer(error: unknown): boolean {
  return isApiError(error) && (error.status === NETWORK_ERROR_STATUS || (error.status >= 502 && error.status <= 504));
}

/**
 * POSTs a create with an Idempotency-Key, and repeats it (same key) when its answer was lost —
 * no connection, or a load balancer / instance that went away (502–504) — or the service was
 * briefly unavailable (503). The server answers a repeat with the first result, so a pin, board or
 * comment is never created twice, and a create is not lost to a failover either.
 */
export async function createOnce<T>(path: string, body: unknown, retryDelaysMs: readonly number[] = RETRY_DELAYS_MS): Promise<T> {
  const idempotencyKey = newIdempotencyKey();
  for (let attempt = 0; ; attempt++) {
    try {
      return await api<T>('POST', path, body, { idempotencyKey });
    } catch (error) {
      const delay = retryDelaysMs[attempt];
      if (!isLostAnswer(error) || delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
