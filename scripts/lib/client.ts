import type { User } from '../../contract/users.ts';

// Shared by the test suites and the benchmark (bench/), which drive a running app over HTTP as a script would.

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A cookie-keeping HTTP client that does the CSRF dance docs/api-by-script.md describes: read XSRF-TOKEN from
 * any GET, send it back as X-XSRF-TOKEN on every call.
 */
export class ApiClient {
  readonly baseUrl: string;
  readonly cookies = new Map<string, string>();

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  get csrfToken(): string | undefined {
    return this.cookies.get('XSRF-TOKEN');
  }

  async request<T = unknown>(
    method: string,
    path: string,
    options: { json?: unknown; rawBody?: string; form?: FormData; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<ApiResponse<T>> {
    // Writes and logout (a GET that changes state) need a token: fetch one first, as a script would.
    const needsToken = method !== 'GET' || path.startsWith('/api/auth/logout');
    if (needsToken && options.csrf !== false && !this.csrfToken) await this.request('GET', '/api/auth/');
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    // Like the web client, on every call: logout is a GET that needs it.
    if (options.csrf !== false && this.csrfToken) headers['x-xsrf-token'] = this.csrfToken;
    let body: string | FormData | undefined;
    // A form: fetch writes the multipart body and its Content-Type (with the boundary) itself.
    if (options.form !== undefined) body = options.form;
    else if (options.rawBody !== undefined) {
      body = options.rawBody;
      headers['content-type'] ??= 'application/json';
    } else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(cookie) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('application/json')) parsed = JSON.parse(text);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }
  post<T = unknown>(path: string, json?: unknown) {
    return this.request<T>('POST', path, { json });
  }
  put<T = unknown>(path: string, json?: unknown) {
    return this.request<T>('PUT', path, { json });
  }
  patch<T = unknown>(path: string, json?: unknown) {
    return this.request<T>('PATCH', path, { json });
  }
  delete<T = unknown>(path: string) {
    return this.request<T>('DELETE', path);
  }
  /** POSTs a file as multipart/form-data, as a browser's form would (POST /api/images/ reads `file`). */
  upload<T = unknown>(path: string, file: { bytes: Uint8Array; name?: string; type?: string }, options: { field?: string; csrf?: boolean } = {}) {
    const form = new FormData();
    form.append(options.field ?? 'file', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name ?? 'upload');
    return this.request<T>('POST', path, { form, ...(options.csrf === false ? { csrf: false } : {}) });
  }
}

/** Every item of a paged list: follows `nextCursor` from page one until it is null. */
export async function allPages<T>(client: ApiClient, path: string, key: string): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page: ApiResponse<Record<string, unknown>> = await client.get(`${path}${cursor ? `${separator}cursor=${encodeURIComponent(cursor)}` : ''}`);
    if (page.status !== 200) throw new Error(`${path}: ${page.status} ${JSON.stringify(page.body)}`);
    items.push(...((page.body[key] as T[] | undefined) ?? []));
    cursor = typeof page.body.nextCursor === 'string' ? page.body.nextCursor : null;
  } while (cursor !== null);
  return items;
}

let counter = 0;

/** Signs up a brand-new user and returns a client holding that user's session. */
export async function signUpUser(baseUrl: string, prefix = 'user'): Promise<{ client: ApiClient; user: User; password: string }> {
  counter += 1;
  const tag = `${prefix}${process.pid}x${counter}x${Math.floor(Math.random() * 1e6)}`.slice(0, 40);
  const password = 'correct horse battery';
  const client = new ApiClient(baseUrl);
  const response = await client.post<User>('/api/auth/signup', { email: `${tag}@example.test`, username: tag, password });
  if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { client, user: response.body, password };
}
