import { afterAll, beforeAll, expect, test } from 'vitest';
import { ApiClient, signUpUser } from '../support/client.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ seed: true });
});
afterAll(() => server?.stop());

test('smoke', async () => {
  const anon = new ApiClient(server.url);
  const pins = await anon.get<{ pins: unknown[] }>('/api/pins/');
  expect(pins.body.pins).toHaveLength(12);
  const { client } = await signUpUser(server.url);
  const created = await client.post('/api/pins/', { title: 'x', imageUrl: 'https://example.com/a.png' });
  expect(created.status).toBe(201);
});
