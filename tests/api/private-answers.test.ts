// Answers that depend on who is asking are never stored by a cache (docs/api.md, Caching): every
// answer of a signed-in or token caller, and of a route that needs one, is `private, no-store`
// unless the route says otherwise. The cached public reads keep their `no-cache` and ETag, and the
// page HTML, which carries the session check's answer, varies with the cookie.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { TokenCreated } from '../../contract/tokens.ts';
import { ApiClient, type ApiResponse } from '../support/client.ts';
import { newComment, newPin, signUpUser } from '../support/factories.ts';
import { TokenClient } from '../support/token-client.ts';
import { useTestServer } from '../support/use-test-server.ts';

const staticDir = mkdtempSync(path.join(tmpdir(), 'pinboard-private-answers-'));
writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><html><head><title>Pinboard</title></head><body></body></html>');
const server = useTestServer({ env: { STATIC_DIR: staticDir } });

const PRIVATE = 'private, no-store';
let client: ApiClient;
let credentials: { email: string; password: string };
let pinId: number;

beforeAll(async () => {
  const signedUp = await signUpUser(server.url, 'private');
  client = signedUp.client;
  credentials = { email: signedUp.user.email, password: signedUp.password };
  pinId = (await newPin(client, 'Public pin')).id;
  await newComment(client, pinId);
});

const cacheControl = (response: ApiResponse | Response) => response.headers.get('cache-control');

describe('answers that depend on the caller', () => {
  test('a signed-in caller: the session check and every list of their own', async () => {
    for (const url of ['/api/auth/', '/api/boards/', '/api/favorites/', '/api/tokens', '/api/imports', '/api/users/blocks', `/api/pins/${pinId}/image-status`]) {
      const response = await client.get(url);
      expect(response.status, url).toBe(200);
      expect(cacheControl(response), url).toBe(PRIVATE);
    }
  });

  test('a token caller', async () => {
    const created = await client.post<TokenCreated>('/api/tokens', { name: 'script', scope: 'read' });
    expect(created.status).toBe(201);
    const token = new TokenClient(server.url, created.body.secret);
    for (const url of ['/api/auth/', '/api/boards/', '/api/favorites/']) {
      const response = await token.get(url);
      expect(response.status, url).toBe(200);
      expect(cacheControl(response), url).toBe(PRIVATE);
    }
  });

  test("signing in answers with the user; a signed-in route's refusal of a visitor is private too", async () => {
    const visitor = new ApiClient(server.url);
    const login = await visitor.post('/api/auth/login', credentials);
    expect(login.status).toBe(200);
    expect(cacheControl(login)).toBe(PRIVATE);
    const refused = await new ApiClient(server.url).get('/api/boards/');
    expect(refused.status).toBe(401);
    expect(cacheControl(refused)).toBe(PRIVATE);
  });

  test('the export download', async () => {
    const response = await fetch(`${server.url}/api/export`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    expect(response.status).toBe(200);
    expect(cacheControl(response)).toBe(PRIVATE);
    await response.arrayBuffer();
  });
});

describe('public answers keep their caching', () => {
  test('the cached public reads: no-cache with an ETag, for visitors and signed-in callers alike', async () => {
    for (const url of [`/api/pins/${pinId}`, '/api/pins/', `/api/comments/pins/${pinId}/comments`]) {
      for (const caller of [new ApiClient(server.url), client]) {
        const response = await caller.get(url);
        expect(response.status, url).toBe(200);
        expect(cacheControl(response), url).toBe('no-cache');
        expect(response.headers.get('etag'), url).toMatch(/^"/);
      }
    }
  });

  test("the page HTML carries the session check's answer: private, no-cache, and it varies with the cookie", async () => {
    for (const url of ['/', `/pins/${pinId}`]) {
      const response = await fetch(`${server.url}${url}`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      expect(response.status, url).toBe(200);
      expect(cacheControl(response), url).toBe('private, no-cache');
      expect(
        response.headers
          .get('vary')
          ?.split(/\s*,\s*/)
          .map((name) => name.toLowerCase()),
        url,
      ).toContain('cookie');
      await response.text();
    }
  });
});
