import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isPublicHost } from './addresses.ts';
import { fetchImageBytes, fetchRule } from './image-bytes.ts';

const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
const fetchSpy = vi.fn(async (_url: URL | string, _init?: RequestInit) => new Response(JPEG, { headers: { 'Content-Type': 'image/jpeg' } }));

beforeEach(() => {
  fetchSpy.mockClear();
  vi.stubGlobal('fetch', fetchSpy);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The credentials mode of the one fetch made. */
function credentialsSent(): RequestCredentials | undefined {
  expect(fetchSpy).toHaveBeenCalledTimes(1);
  return fetchSpy.mock.calls[0]?.[1]?.credentials;
}

describe('which hosts are public', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.20',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '[::1]',
    '[::]',
    '[fc00::1]',
    '[fd12:3456::1]',
    '[fe80::1]',
    '[::ffff:7f00:1]',
    '[::ffff:c0a8:101]',
    '[64:ff9b::a00:1]',
    'localhost',
    'LOCALHOST',
    'localhost.',
    'intranet.localhost',
    'a.b.localhost',
    'intranet',
    'wiki.',
    'printer.local',
    'git.internal',
    'nas.home.arpa',
  ])('%s is not', (host) => {
    expect(isPublicHost(host)).toBe(false);
  });

  it.each(['example.com', 'cdn.example.com', '93.184.216.34', '8.8.8.8', '172.32.0.1', '[2606:4700::1111]', 'localhost.example.com', '127.0.0.1.example.com'])('%s is', (host) => {
    expect(isPublicHost(host)).toBe(true);
  });

  it('judges the host as the URL parser writes it (other spellings of loopback are loopback)', () => {
    for (const spelled of ['http://0x7f.1/', 'http://2130706433/', 'http://127.1/', 'http://[0:0:0:0:0:0:0:1]/', 'http://[::ffff:127.0.0.1]/']) {
      expect(isPublicHost(new URL(spelled).hostname)).toBe(false);
    }
  });
});

describe('fetching an image’s bytes', () => {
  it('sends cookies only to the tab’s own origin', async () => {
    await fetchImageBytes('https://shop.example/photo.jpg', 'https://shop.example/item/1');
    expect(credentialsSent()).toBe('include');
    fetchSpy.mockClear();
    await fetchImageBytes('https://cdn.shop.example/photo.jpg', 'https://shop.example/item/1');
    expect(credentialsSent()).toBe('omit');
    fetchSpy.mockClear();
    await fetchImageBytes('http://shop.example/photo.jpg', 'https://shop.example/item/1'); // another scheme
    expect(credentialsSent()).toBe('omit');
    fetchSpy.mockClear();
    await fetchImageBytes('https://shop.example:8443/photo.jpg', 'https://shop.example/item/1'); // another port
    expect(credentialsSent()).toBe('omit');
  });

  it('never fetches a private, loopback or intranet address for a public page, with or without cookies', async () => {
    for (const src of [
      'http://127.0.0.1:8080/a.jpg',
      'http://localhost/a.jpg',
      'http://intranet/secret.jpg',
      'http://192.168.1.1/cam.jpg',
      'http://169.254.169.254/latest/x.jpg',
      'http://[::1]/a.jpg',
      'http://[fd00::5]/a.jpg',
      'http://0.0.0.0/a.jpg',
      'http://files.internal/a.jpg',
    ]) {
      const result = await fetchImageBytes(src, 'https://kittens.example/cute');
      expect(result).toEqual({ failed: expect.stringMatching(/private/) });
      expect(fetchRule(src, 'https://kittens.example/cute')).toEqual({ refused: expect.any(String) });
    }
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('a page that is itself on a private address may fetch its own images with cookies, and other private ones without', async () => {
    await fetchImageBytes('http://wiki.corp.internal/images/chart.png', 'http://wiki.corp.internal/Quarterly');
    expect(credentialsSent()).toBe('include');
    fetchSpy.mockClear();
    await fetchImageBytes('http://10.0.0.7/photo.jpg', 'http://wiki.corp.internal/Quarterly');
    expect(credentialsSent()).toBe('omit');
    fetchSpy.mockClear();
    await fetchImageBytes('https://cdn.example.com/photo.jpg', 'http://10.0.0.5/');
    expect(credentialsSent()).toBe('omit');
  });

  it('a page whose address is no web page (none, file:, the browser’s own) counts as public and gets no cookies', async () => {
    for (const page of ['', 'file:///home/me/a.html', 'chrome://newtab/']) {
      expect(fetchRule('http://localhost/a.jpg', page)).toEqual({ refused: expect.any(String) });
      expect(fetchRule('https://example.com/a.jpg', page)).toEqual({ credentials: 'omit' });
    }
  });

  it('follows no redirect: the rule judged the address asked for, not where it leads', async () => {
    fetchSpy.mockResolvedValueOnce({ type: 'opaqueredirect', ok: false, status: 0, headers: new Headers() } as Response);
    const result = await fetchImageBytes('https://shop.example/photo.jpg', 'https://shop.example/');
    expect(fetchSpy.mock.calls[0]?.[1]?.redirect).toBe('manual');
    expect(result).toEqual({ failed: expect.stringMatching(/redirects/) });
  });

  it('returns the bytes and a file name', async () => {
    const result = await fetchImageBytes('https://shop.example/photos/red%20shoe.jpg', 'https://shop.example/');
    expect('blob' in result && result.fileName).toBe('red shoe.jpg');
    expect('blob' in result && new Uint8Array(await result.blob.arrayBuffer())).toEqual(JPEG);
  });
});
