import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import express from 'express';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createLoginThrottle } from '../../backend/auth/login-throttle.ts';
import { createCursorCodec } from '../../backend/paging/cursor.ts';
import { LocalMediaStorage } from '../../backend/images/local-storage.ts';
import { ReadCache } from '../../backend/http/read-cache.ts';
import { loadConfig } from '../../backend/config.ts';
import { EventBus } from '../../backend/bus/event-bus.ts';
import { createCsrf } from '../../backend/http/csrf.ts';
import { errorHandler } from '../../backend/http/error-handler.ts';
import type { OriginPolicy } from '../../backend/http/origin.ts';
import { createRateLimiters } from '../../backend/http/rate-limits.ts';
import { route, type RouteDeps, routerFor } from '../../backend/http/route.ts';
import { buildOpenApiDocument } from '../../backend/openapi.ts';
import { API_ROUTES } from '../../backend/routes.ts';
import { ENDPOINTS } from '../../contract/endpoints.ts';
import type { ErrorBody } from '../../contract/errors.ts';
import type { DB } from '../../db/schema.ts';
import { ApiClient } from '../support/client.ts';
import { fieldsOf, ROUTES, wrongQueryValues } from '../support/routes.ts';
import { useTestServer } from '../support/use-test-server.ts';

// The route declarations are the one list the router, the OpenAPI document and the bad-input and
// fuzz tests read. Here: the running server routes and documents exactly that list, the
// declaration machinery checks input in its fixed order, query strings included, and the
// contract's route table (which types the client's calls) names the same routes with the same schemas.

describe('the running server', () => {
  const server = useTestServer();

  test('documents every declared route, and nothing else', async () => {
    const res = await new ApiClient(server.url).get<{ paths: Record<string, Record<string, unknown>> }>('/api/openapi.json');
    const documented = Object.entries(res.body.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(ROUTES.map((r) => r.label).sort());
  });

  test('routes every declared route, a list path with or without its trailing slash', async () => {
    const anonymous = new ApiClient(server.url);
    for (const r of ROUTES) {
      const path = r.path.replace(/\{\w+\}/g, '1');
      const variants = path.endsWith('/') ? [path, path.slice(0, -1)] : [path];
      const answers = [];
      for (const variant of variants) {
        const res = await anonymous.request(r.method, variant, r.method === 'GET' || r.method === 'DELETE' ? {} : { json: {} });
        expect(JSON.stringify(res.body), `${r.method} ${variant}`).not.toMatch(/No API route/);
        answers.push(res.status);
      }
      expect(new Set(answers).size, `${r.label}: ${answers.join(', ')}`).toBe(1);
    }
  });

  test('answers OPTIONS on a declared path with the methods it serves', async () => {
    const res = await fetch(`${server.url}/api/pins/1`, { method: 'OPTIONS' });
    expect(res.status).toBe(200);
    expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD, PUT');
  });
});

describe('a declared route with a query string', () => {
  const Page = z.object({
    limit: z.coerce.number().int().min(1).max(100).default(50),
    order: z.enum(['newest', 'shuffle']).default('newest'),
    cursor: z.string().max(20).optional(),
  });
  const Note = z.object({ text: z.string().min(1) });
  // Endpoints of a contract of their own: what contract/endpoints.ts holds for the app's routes.
  const echo = route(
    { method: 'post', path: '/api/probes/{id}', query: Page, body: Note, responses: { 200: z.object({ ok: z.boolean() }) } },
    {
      summary: 'Echoes its input',
      auth: 'public',
      handler: async ({ res, params, query, body, operation }) => {
        res.json({ params, query, body, operation });
      },
    },
  );
  const guarded = route(
    { method: 'get', path: '/api/probes/{id}/private', query: Page, responses: { 200: z.object({ ok: z.boolean() }) } },
    {
      summary: 'Signed-in callers only',
      auth: 'user',
      handler: async ({ res }) => {
        res.json({ ok: true });
      },
    },
  );

  let base: string;
  let close: () => void;
  beforeAll(async () => {
    const config = loadConfig({ NODE_ENV: 'test' });
    const originPolicy: OriginPolicy = { publicOrigins: [], trustProxy: () => false };
    // The probes read none of the app's services; a database handle that never connects will do.
    const db = new Kysely<DB>({
      dialect: {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (kysely) => new PostgresIntrospector(kysely),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      },
    });
    const deps: RouteDeps = {
      ctx: {
        db,
        events: new EventBus(),
        jobs: { send: () => Promise.reject(new Error('no job queue here')), pending: () => Promise.reject(new Error('no job queue here')) },
        fetching: { allow: { cidrs: [], ports: [] }, pendingPerUser: 1 },
      },
      csrf: createCsrf(config.sessionSecret, originPolicy),
      limits: createRateLimiters(config.rateLimits, undefined, { warn: () => {} }),
      throttle: createLoginThrottle(config.rateLimits, undefined),
      originPolicy,
      cursors: createCursorCodec(config.sessionSecret),
      reads: new ReadCache({ maxEntries: 10, ttlMs: 1_000 }),
      reader: (_req, read) => read(db),
      demoEmail: undefined,
      // The probes store no images; a folder that is never written will do.
      media: new LocalMediaStorage(tmpdir()),
      // Nor any import.
      bulkImports: { dir: tmpdir(), openPerUser: 3, diskPerUserBytes: 1024 ** 3 },
      tokens: { revoked: async () => {} },
      uploads: { tmpDir: tmpdir(), timeoutMs: 1_000, admit: () => Promise.reject(new Error('no uploads here')) },
      // Nor any password reset.
      accounts: { mailer: undefined, countResetRequest: () => Promise.reject(new Error('no resets here')) },
      site: config.site,
    };
    const app = express();
    app.use('/api', express.json(), routerFor('/api', [echo, guarded], deps));
    app.use(errorHandler({ error: () => {} }));
    const listener = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    base = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
    close = () => listener.close();
  });
  afterAll(() => close?.());

  const post = async (path: string, body: unknown) => {
    const res = await fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  test('hands the handler typed, defaulted values and drops keys it does not read', async () => {
    expect(await post('/api/probes/7?limit=5&order=shuffle&junk=1', { text: 'hi', extra: true })).toEqual({
      status: 200,
      body: { params: { id: 7 }, query: { limit: 5, order: 'shuffle' }, body: { text: 'hi' }, operation: 'POST /api/probes/7' },
    });
    expect((await post('/api/probes/7', { text: 'hi' })).body.query).toEqual({ limit: 50, order: 'newest' });
  });

  for (const [field, spec] of Object.entries(fieldsOf(Page))) {
    for (const value of wrongQueryValues(spec)) {
      test(`${field}=${JSON.stringify(value).slice(0, 40)} → 400 naming ${field}`, async () => {
        const query = new URLSearchParams([value].flat().map((v) => [field, v]));
        const res = await post(`/api/probes/7?${query}`, { text: 'hi' });
        expect(res.status).toBe(400);
        expect(Object.keys(res.body).sort()).toEqual(['errors', 'fields', 'message']);
        expect(Object.keys((res.body as ErrorBody).fields)).toEqual([field]);
      });
    }
  }

  test('checks in a fixed order: the caller, then the ids, then the query string, then the body', async () => {
    const anonymous = await fetch(`${base}/api/probes/x/private?limit=0`);
    expect(anonymous.status).toBe(401);
    expect(Object.keys(((await post('/api/probes/x?limit=0', {})).body as ErrorBody).fields)).toEqual(['id']);
    expect(Object.keys(((await post('/api/probes/7?limit=0', {})).body as ErrorBody).fields)).toEqual(['limit']);
    expect(Object.keys(((await post('/api/probes/7', {})).body as ErrorBody).fields)).toEqual(['text']);
  });

  test('the OpenAPI document lists its query parameters with their rules', () => {
    const operation = buildOpenApiDocument([echo]).paths?.['/api/probes/{id}']?.post;
    expect(operation?.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'path', name: 'id', required: true }),
        expect.objectContaining({ in: 'query', name: 'limit', required: false, schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100 }) }),
        expect.objectContaining({ in: 'query', name: 'order', required: false, schema: expect.objectContaining({ enum: ['newest', 'shuffle'] }) }),
        expect.objectContaining({ in: 'query', name: 'cursor', required: false }),
      ]),
    );
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '403', '413']));
  });
});

test('the API declares each method and path once', () => {
  const labels = API_ROUTES.map((r) => `${r.method} ${r.path}`);
  expect(labels.filter((label, i) => labels.indexOf(label) !== i)).toEqual([]);
});

describe("the contract's route table (contract/endpoints.ts), which the server implements and the client's calls are typed from", () => {
  const declared = API_ROUTES.map((r) => `${r.method.toUpperCase()} ${r.path}`);

  test('every endpoint is implemented by exactly one route', () => {
    const twice = declared.filter((label, i) => declared.indexOf(label) !== i);
    const missing = Object.keys(ENDPOINTS).filter((label) => !declared.includes(label));
    expect({ twice, missing }).toEqual({ twice: [], missing: [] });
    expect(declared).toHaveLength(Object.keys(ENDPOINTS).length);
  });

  test('a route takes a file exactly when its endpoint says so', () => {
    const endpoint = { method: 'post', path: '/api/probes/{id}', upload: true, responses: { 200: z.object({ ok: z.boolean() }) } } as const;
    const handler = async () => undefined;
    expect(() => route(endpoint, { summary: 'A file without its limits', auth: 'user', handler })).toThrow('the contract and the route disagree on whether it takes a file');
    const { upload: _file, ...plain } = endpoint;
    const limits = { field: 'file', maxBytes: 1, tooLarge: 'Too large', missing: 'No file', description: 'A file', types: ['image/png'] };
    expect(() => route(plain, { summary: 'Limits for no file', auth: 'user', upload: limits, handler })).toThrow('the contract and the route disagree on whether it takes a file');
  });
});
