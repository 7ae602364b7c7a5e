import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BRIDGE, isBridgeConnect, isBridgePing } from '../../contract/extension-bridge.ts';
import { browserName } from '../extension/bridge.ts';
import { alice, errorBody, renderApp } from '../test-support/render.tsx';

// The page's side of the bridge to the browser extension (docs/extension.md). The extension itself
// runs in tests/e2e/extension.test.ts; here a stand-in answers the way its content script does:
// hello on ping, a result for a token, on this window and origin only.
const SECRET = `pb_${'A'.repeat(43)}`;
let stopExtension: (() => void) | null = null;

function fakeExtension(answer: (token: string) => { ok: true; username: string } | { ok: false; message: string }) {
  const received: string[] = [];
  const onMessage = (event: MessageEvent) => {
    if (event.origin !== window.location.origin) return;
    if (isBridgePing(event.data)) window.postMessage({ type: BRIDGE.hello, version: '0.1.0', username: null }, window.location.origin);
    else if (isBridgeConnect(event.data)) {
      received.push(event.data.token);
      window.postMessage({ type: BRIDGE.result, ...answer(event.data.token) }, window.location.origin);
    }
  };
  window.addEventListener('message', onMessage);
  stopExtension = () => window.removeEventListener('message', onMessage);
  return received;
}

/** The origins messages were posted to: only the page's own may ever appear. */
let targetOrigins: string[] = [];

beforeEach(() => {
  targetOrigins = [];
  // jsdom's postMessage delivers without an origin or source; a browser's names both (and delivers
  // later, as a task).
  vi.spyOn(window, 'postMessage').mockImplementation((data: unknown, targetOrigin?: string | WindowPostMessageOptions) => {
    const origin = typeof targetOrigin === 'string' ? targetOrigin : (targetOrigin?.targetOrigin ?? '/');
    targetOrigins.push(origin);
    if (origin !== window.location.origin) return;
    setTimeout(() => window.dispatchEvent(new MessageEvent('message', { data, origin: window.location.origin, source: window })));
  });
});

afterEach(() => {
  stopExtension?.();
  stopExtension = null;
  expect(new Set(targetOrigins)).toEqual(new Set(targetOrigins.length ? [window.location.origin] : []));
});

const created = { token: { id: 7, name: 'x', scope: 'write', createdAt: '2026-11-26T00:00:00.000Z', expiresAt: null, lastUsedAt: null }, secret: SECRET };

describe('Connect the browser extension', () => {
  it('without the extension, says so and shows the address to enter; looking again finds it', async () => {
    const { ui, sent } = renderApp('/connect', { user: alice });
    expect(await screen.findByText('The extension is not answering on this page.', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText(window.location.origin)).toBeTruthy();
    fakeExtension(() => ({ ok: true, username: 'alice' }));
    await ui.click(screen.getByRole('button', { name: 'Look again' }));
    expect(await screen.findByText('The extension is ready.')).toBeTruthy();
    expect(sent('POST')).toHaveLength(0); // no token until the user asks for one
  });

  it('Connect creates a write token named for the browser and hands it to the extension', async () => {
    const received = fakeExtension(() => ({ ok: true, username: 'alice' }));
    const { ui, sent } = renderApp('/connect', { user: alice, handlers: { 'POST /api/tokens': { status: 201, body: created } } });
    await ui.click(await screen.findByRole('button', { name: 'Connect' }));
    expect(await screen.findByText('Connected as alice.')).toBeTruthy();
    const [post] = sent('POST');
    expect(post?.path).toBe('/api/tokens');
    expect(post?.body).toEqual({ name: `Browser extension (${browserName(navigator.userAgent)})`, scope: 'write' });
    expect(received).toEqual([SECRET]);
  });

  it('a token the extension refuses is revoked at once, and the reason shows', async () => {
    fakeExtension(() => ({ ok: false, message: 'Pinboard does not know this token.' }));
    const { ui, sent } = renderApp('/connect', {
      user: alice,
      handlers: { 'POST /api/tokens': { status: 201, body: created }, 'DELETE /api/tokens/7': { body: { message: 'Token revoked', id: 7 } } },
    });
    await ui.click(await screen.findByRole('button', { name: 'Connect' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Pinboard does not know this token.');
    await waitFor(() => expect(sent('DELETE').map((c) => c.path)).toEqual(['/api/tokens/7']));
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('a refused token creation shows the server’s message and hands nothing over', async () => {
    const received = fakeExtension(() => ({ ok: true, username: 'alice' }));
    const { ui } = renderApp('/connect', { user: alice, handlers: { 'POST /api/tokens': { status: 409, body: errorBody('You can have at most 100 tokens. Revoke one first.') } } });
    await ui.click(await screen.findByRole('button', { name: 'Connect' }));
    expect((await screen.findByRole('alert')).textContent).toBe('You can have at most 100 tokens. Revoke one first.');
    expect(received).toEqual([]);
  });

  it('names the browser from its user agent', () => {
    expect(browserName('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36')).toBe('Chrome on Linux');
    expect(browserName('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:142.0) Gecko/20100101 Firefox/142.0')).toBe('Firefox on Windows');
    expect(browserName('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36 Edg/140.0.0.0')).toBe('Edge on macOS');
    expect(browserName('curl/8')).toBe('Browser');
  });
});
