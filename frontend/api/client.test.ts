import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError, createOnce } from './client.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
});

function stubFetch(...replies: Response[]) {
  const fn = vi.fn(async () => replies.shift() ?? new Response('{}'));
  vi.stubGlobal('fetch', fn);
  return fn;
}

describe('api helper', () => {
  it('sends cookies and JSON; adds X-XSRF-TOKEN from the cookie on every call (logout is a GET)', async () => {
    document.cookie = 'XSRF-TOKEN=abc123; path=/';
    const fn = stubFetch(new Response('{"ok":1}'), new Response('{"ok":2}'));
    await api('GET', '/api/pins/');
    await api('POST', '/api/boards/', { name: 'x' });
    const [getInit, postInit] = fn.mock.calls.map((c) => (c as unknown as [string, RequestInit])[1]);
    expect(getInit?.credentials).toBe('same-origin');
    expect((getInit?.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('abc123');
    expect((getInit?.headers as Record<string, string>)['Content-Type']).toBeUndefined();
    expect((postInit?.headers as Record<string, string>)['X-XSRF-TOKEN']).toBe('abc123');
    expect((postInit?.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(postInit?.body).toBe('{"name":"x"}');
  });

  it('turns any status of 400 or above into an ApiError with the error shape', async () => {
    stubFetch(new Response(JSON.stringify({ message: 'Nope', errors: ['Nope'], fields: { email: 'Bad' } }), { status: 409 }));
    const error = await api('POST', '/api/auth/signup', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(409);
    expect((error as ApiError).body).toEqual({ message: 'Nope', errors: ['Nope'], fields: { email: 'Bad' } });
  });

  it('copes with an error answer that is not JSON, and with no answer at all', async () => {
    stubFetch(new Response('<html>bad gateway</html>', { status: 502 }));
    const error = (await api('GET', '/api/pins/').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.body.errors).toEqual([]);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('offline'))),
    );
    const offline = (await api('GET', '/api/pins/').catch((e: unknown) => e)) as ApiError;
    expect(offline.status).toBe(0);
  });

  it('refreshes the CSRF token once and retries after a CSRF 403', async () => {
    const fn = stubFetch(
      new Response(JSON.stringify({ message: 'Invalid or missing CSRF token.', errors: [], fields: {} }), { status: 403 }),
      new Response('{"user":null}'),
      new Response('{"id":1}', { status: 201 }),
    );
    await expect(api('POST', '/api/boards/', { name: 'x' })).resolves.toEqual({ id: 1 });
    expect(fn).toHaveBeenCalledTimes(3);
  });
});

describe('createOnce', () => {
  const headersOf = (fn: ReturnType<typeof stubFetch>) => fn.mock.calls.map((c) => (c as unknown as [string, RequestInit])[1]?.headers as Record<string, string>);

  it('sends an Idempotency-Key and repeats a lost answer with the same key', async () => {
    const fn = stubFetch(
      new Response('<html>bad gateway</html>', { status: 502 }),
      new Response('{"message":"down","errors":["down"],"fields":{}}', { status: 503 }),
      new Response('{"id":7}', { status: 201 }),
    );
    expect(await createOnce('/api/pins/', { title: 't' }, [0, 0])).toEqual({ id: 7 });
    const keys = headersOf(fn).map((h) => h['Idempotency-Key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(keys).size).toBe(1);
  });

  it('does not repeat a refused request, and gives up after its retries', async () => {
    stubFetch(new Response('{"message":"Title is required.","errors":[],"fields":{}}', { status: 400 }));
    expect(((await createOnce('/api/pins/', {}, [0]).catch((e: unknown) => e)) as ApiError).status).toBe(400);
    const fn = stubFetch(new Response('', { status: 504 }), new Response('', { status: 504 }));
    expect(((await createOnce('/api/boards/', {}, [0]).catch((e: unknown) => e)) as ApiError).status).toBe(504);
    expect(fn).toHaveBeenCalledTimes(2);
  });

  it('uses a new key for each create', async () => {
    const fn = stubFetch(new Response('{"id":1}', { status: 201 }), new Response('{"id":2}', { status: 201 }));
    await createOnce('/api/boards/', { name: 'a' });
    await createOnce('/api/boards/', { name: 'a' });
    const [first, second] = headersOf(fn).map((h) => h['Idempotency-Key']);
    expect(first).not.toBe(second);
  });
});
