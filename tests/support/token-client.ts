import type { ApiResponse } from '../../scripts/lib/client.ts';

/**
 * Calls the API as a script holding a personal access token does: `Authorization: Bearer`, no
 * cookie jar, no anti-forgery header.
 */
export class TokenClient {
  readonly baseUrl: string;
  readonly secret: string;

  constructor(baseUrl: string, secret: string) {
    this.baseUrl = baseUrl;
    this.secret = secret;
  }

  async request<T = unknown>(method: string, path: string, options: { json?: unknown; form?: FormData; authorization?: string; headers?: Record<string, string> } = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { authorization: options.authorization ?? `Bearer ${this.secret}`, ...options.headers };
    let body: string | FormData | undefined;
    if (options.form) body = options.form;
    else if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    return { status: response.status, body: (isJson && text ? JSON.parse(text) : text) as T, headers: response.headers };
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
  delete<T = unknown>(path: string) {
    return this.request<T>('DELETE', path);
  }
}
