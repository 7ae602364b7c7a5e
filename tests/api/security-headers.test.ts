// The Content-Security-Policy lets the page connect to its own site only: its REST API and its
// WebSocket (ws: or wss: of the same host, or of the configured public origins), never any host.
import { expect, test } from 'vitest';
import { ApiClient } from '../support/client.ts';
import { useTestServer } from '../support/use-test-server.ts';

const plain = useTestServer();
const named = useTestServer({ env: { PUBLIC_ORIGIN: 'https://pins.example, https://www.pins.example' } });

async function connectSources(url: string): Promise<string[]> {
  const res = await new ApiClient(url).get('/api/auth/');
  const policy = res.headers.get('content-security-policy') ?? '';
  const directive =
    policy
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith('connect-src ')) ?? '';
  return directive.split(/\s+/).slice(1);
}

test('connect-src: the site itself and its own WebSocket, never every ws:/wss: host', async () => {
  const host = new URL(plain.url).host;
  expect(await connectSources(plain.url)).toEqual(["'self'", `ws://${host}`, `wss://${host}`]);
});

test('connect-src with PUBLIC_ORIGIN: the configured origins and their WebSockets only', async () => {
  expect(await connectSources(named.url)).toEqual(["'self'", 'https://pins.example', 'wss://pins.example', 'https://www.pins.example', 'wss://www.pins.example']);
});
