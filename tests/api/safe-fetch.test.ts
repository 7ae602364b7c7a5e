// The SSRF guard of image imports (backend/images/safe-fetch.ts): every address a user's URL could
// use to reach this host or its network is refused, directly and through a redirect, before any
// connection; what is allowed is fetched with a deadline and a byte cap. No database, no internet:
// the servers are local, and refusals that need no lookup (ports, schemes) come before any.
import dns from 'node:dns';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { addressPolicy } from '../../backend/images/address-policy.ts';
import { safeFetch, SafeFetchError, type SafeFetchOptions } from '../../backend/images/safe-fetch.ts';
import { ConfigError, loadConfig } from '../../backend/config.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

async function listen(handler: RequestListener, host = '127.0.0.1', port = 0): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return server;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** Two servers on one port (a free one for the first may be taken on the second's address). */
async function samePort(first: (port: number) => Promise<Server>, second: (port: number) => Promise<Server>): Promise<[Server, Server]> {
  for (let attempt = 1; ; attempt++) {
    const a = await first(0);
    try {
      return [a, await second((a.address() as AddressInfo).port)];
    } catch (error) {
      await close(a);
      if (attempt === 5) throw error;
    }
  }
}

/** The reason safeFetch gave, or 'ok'. */
async function outcome(url: string, options: SafeFetchOptions): Promise<string> {
  try {
    await safeFetch(url, options);
    return 'ok';
  } catch (error) {
    if (!(error instanceof SafeFetchError)) throw error;
    return error.reason;
  }
}

// Short bounds: a refusal that wrongly waited on a connection would show up as 'timeout' or
// 'network' instead of the reason expected.
const strict: SafeFetchOptions = { maxBytes: 1024, connectTimeoutMs: 300, totalTimeoutMs: 2000 };

const refusedDirectly: [string, string][] = [
  ['http://127.0.0.1/', 'blocked_address'],
  ['https://127.0.0.1/', 'blocked_address'],
  ['http://127.1/', 'blocked_address'],
  ['http://[::1]/', 'blocked_address'],
  ['http://[::ffff:127.0.0.1]/', 'blocked_address'],
  ['http://[::ffff:7f00:1]/', 'blocked_address'],
  ['http://[::7f00:1]/', 'blocked_address'],
  ['http://0.0.0.0/', 'blocked_address'],
  ['http://0/', 'blocked_address'],
  ['http://[::]/', 'blocked_address'],
  ['http://169.254.169.254/latest/meta-data/', 'blocked_address'],
  ['http://[::ffff:169.254.169.254]/latest/meta-data/', 'blocked_address'],
  ['http://[fd00:ec2::254]/latest/meta-data/', 'blocked_address'],
  ['http://10.0.0.1/', 'blocked_address'],
  ['http://192.168.1.1/', 'blocked_address'],
  ['http://172.16.0.1/', 'blocked_address'],
  ['http://100.64.0.1/', 'blocked_address'],
  ['http://[fe80::1]/', 'blocked_address'],
  ['http://[fc00::1]/', 'blocked_address'],
  ['http://224.0.0.1/', 'blocked_address'],
  ['http://255.255.255.255/', 'blocked_address'],
  ['http://[64:ff9b::a00:1]/', 'blocked_address'],
  ['http://[64:ff9b::7f00:1]/', 'blocked_address'],
  ['http://[2002:7f00:1::]/', 'blocked_address'],
  ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'blocked_address'],
  ['http://localhost/', 'blocked_address'],
  ['https://localhost/', 'blocked_address'],
  ['http://2130706433/', 'blocked_address'],
  ['http://0x7f000001/', 'blocked_address'],
  ['http://0177.0.0.1/', 'blocked_address'],
  ['ftp://example.com/image.png', 'bad_scheme'],
  ['file:///etc/passwd', 'bad_scheme'],
  ['gopher://127.0.0.1:6379/_INFO', 'bad_scheme'],
  ['http://example.com:8080/image.png', 'bad_port'],
  ['https://example.com:6379/', 'bad_port'],
  ['http://user:secret@example.com/image.png', 'bad_url'],
  ['not a url', 'bad_url'],
];

describe('refused before any connection', () => {
  test.each(refusedDirectly)('%s → %s', async (url, reason) => {
    expect(await outcome(url, strict)).toBe(reason);
  });

  test('a name is refused when any one of its addresses is', async () => {
    const lookup = vi.spyOn(dns, 'lookup');
    try {
      // One public and one private address: the connection could be steered to the private one.
      lookup.mockImplementation(((_host: string, _options: unknown, callback: (e: null, a: dns.LookupAddress[]) => void) => {
        callback(null, [
          { address: '93.184.216.34', family: 4 },
          { address: '10.0.0.1', family: 4 },
        ]);
      }) as unknown as typeof dns.lookup);
      expect(await outcome('http://mixed.test/', strict)).toBe('blocked_address');
    } finally {
      lookup.mockRestore();
    }
  });
});

test('DNS rebinding: the address checked is the address connected to, from one lookup', async () => {
  // The allowed server on 127.0.0.2 and a forbidden one on 127.0.0.1, same port. The name first
  // resolves to the allowed address, then (rebinding) to the forbidden one: a client that looks up
  // again to connect reaches the forbidden server.
  const allowedHits: string[] = [];
  const forbiddenHits: string[] = [];
  const [allowed, forbidden] = await samePort(
    (port) =>
      listen(
        (req, res) => {
          allowedHits.push(req.url ?? '');
          res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
        },
        '127.0.0.2',
        port,
      ),
    (port) =>
      listen(
        (req, res) => {
          forbiddenHits.push(req.url ?? '');
          res.end('secret');
        },
        '127.0.0.1',
        port,
      ),
  );
  const { port } = allowed.address() as AddressInfo;
  const lookup = vi.spyOn(dns, 'lookup');
  let answers = 0;
  lookup.mockImplementation(((_host: string, _options: unknown, callback: (e: null, a: dns.LookupAddress[]) => void) => {
    answers += 1;
    callback(null, [{ address: answers === 1 ? '127.0.0.2' : '127.0.0.1', family: 4 }]);
  }) as unknown as typeof dns.lookup);
  try {
    const result = await safeFetch(`http://rebind.test:${port}/a.png`, { ...strict, allow: { cidrs: ['127.0.0.2/32'], ports: [port] } });
    expect(result.bytes.equals(PNG)).toBe(true);
    expect(allowedHits).toEqual(['/a.png']);
    expect(forbiddenHits).toEqual([]);
    expect(answers).toBe(1);
  } finally {
    lookup.mockRestore();
    await close(allowed);
    await close(forbidden);
  }
});

describe('with a local server allowed (its exact address and port only)', () => {
  let server: Server;
  let base: string;
  let allow: SafeFetchOptions['allow'];
  const hits: string[] = [];

  beforeAll(async () => {
    server = await listen((req, res) => {
      const url = new URL(req.url ?? '/', 'http://local');
      hits.push(url.pathname);
      const to = url.searchParams.get('to');
      if (url.pathname === '/image.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG);
      } else if (url.pathname === '/redirect' && to) {
        res.writeHead(302, { location: to }).end();
      } else if (url.pathname.startsWith('/chain/')) {
        // /chain/3 → /chain/2 → /chain/1 → /chain/0 → the image: n redirects, relative Locations.
        const n = Number(url.pathname.slice('/chain/'.length));
        res.writeHead(n === 0 ? 307 : 301, { location: n === 0 ? '/image.png' : `/chain/${n - 1}` }).end();
      } else if (url.pathname === '/big-declared') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': 4096 }).end(Buffer.alloc(4096));
      } else if (url.pathname === '/big-chunked') {
        res.writeHead(200, { 'content-type': 'image/png' });
        // Chunked, no length: only counting the bytes stops it.
        for (let i = 0; i < 8; i++) res.write(Buffer.alloc(512));
        res.end();
      } else if (url.pathname === '/silent') {
        // Never answers.
      } else if (url.pathname === '/stalls') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.write(PNG.subarray(0, 8));
      } else {
        res.writeHead(404).end();
      }
    });
    const { port } = server.address() as AddressInfo;
    base = `http://127.0.0.1:${port}`;
    allow = { cidrs: ['127.0.0.1/32'], ports: [port] };
  });
  afterAll(() => close(server));
  afterEach(() => {
    hits.length = 0;
  });

  test('an image is fetched with its content type', async () => {
    const result = await safeFetch(`${base}/image.png`, { ...strict, allow });
    expect(result.bytes.equals(PNG)).toBe(true);
    expect(result.contentType).toBe('image/png');
    expect(result.finalUrl).toBe(`${base}/image.png`);
  });

  test('three redirects are followed (each hop re-checked), a fourth is refused', async () => {
    const result = await safeFetch(`${base}/chain/2`, { ...strict, allow });
    expect(result.finalUrl).toBe(`${base}/image.png`);
    expect(hits).toEqual(['/chain/2', '/chain/1', '/chain/0', '/image.png']);
    hits.length = 0;
    expect(await outcome(`${base}/chain/3`, { ...strict, allow })).toBe('too_many_redirects');
    expect(hits).toEqual(['/chain/3', '/chain/2', '/chain/1', '/chain/0']);
    expect(await outcome(`${base}/chain/0`, { ...strict, allow, maxRedirects: 0 })).toBe('too_many_redirects');
  });

  test('a body over maxBytes is refused, with and without Content-Length', async () => {
    expect(await outcome(`${base}/big-declared`, { ...strict, allow })).toBe('too_large');
    expect(await outcome(`${base}/big-chunked`, { ...strict, allow })).toBe('too_large');
    expect((await safeFetch(`${base}/big-chunked`, { ...strict, allow, maxBytes: 4096 })).bytes.length).toBe(4096);
  });

  test('a server that never answers, or stops halfway, times out', async () => {
    const started = Date.now();
    expect(await outcome(`${base}/silent`, { ...strict, allow, totalTimeoutMs: 300 })).toBe('timeout');
    expect(await outcome(`${base}/stalls`, { ...strict, allow, totalTimeoutMs: 300 })).toBe('timeout');
    console.log(`two timeouts of 300 ms took ${Date.now() - started} ms`);
  });

  test('a TLS handshake that never completes meets the connect timeout', async () => {
    // A TCP server that accepts and says nothing: the connection is up, the handshake never ends.
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const error = await safeFetch(`https://127.0.0.1:${port}/`, { ...strict, totalTimeoutMs: 30_000, allow: { cidrs: ['127.0.0.1/32'], ports: [port] } }).catch((e: unknown) => e);
      expect(error).toMatchObject({ reason: 'timeout', cause: { code: 'UND_ERR_CONNECT_TIMEOUT' } });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  test('a name that does not exist is unknown_host (final), not a network error (retried)', async () => {
    expect(await outcome('https://images.does-not-exist.invalid/photo.jpg', strict)).toBe('unknown_host');
  });

  test('a final answer other than 2xx is http_status, with its status', async () => {
    const error = await safeFetch(`${base}/missing`, { ...strict, allow }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SafeFetchError);
    expect(error).toMatchObject({ reason: 'http_status', status: 404 });
  });

  test('the allow list is needed: without it the local server is refused', async () => {
    expect(await outcome(`${base}/image.png`, strict)).toBe('bad_port');
    expect(await outcome(`${base}/image.png`, { ...strict, allow: { ports: allow?.ports ?? [] } })).toBe('blocked_address');
    expect(hits).toEqual([]);
  });

  // 127.0.0.1 is allowed here, so the targets are other blocked addresses (127.0.0.2 in its odd
  // spellings stands for "loopback that isn't the allowed server").
  const redirectTargets = (port: number): [string, string][] => [
    ['http://169.254.169.254/latest/meta-data/', 'blocked_address'],
    [`http://[::1]:${port}/`, 'blocked_address'],
    ['http://[::ffff:a9fe:a9fe]/', 'blocked_address'],
    ['http://10.0.0.1/', 'blocked_address'],
    ['http://192.168.1.1/', 'blocked_address'],
    ['http://172.16.0.1/', 'blocked_address'],
    [`http://0.0.0.0:${port}/`, 'blocked_address'],
    [`http://127.0.0.2:${port}/`, 'blocked_address'],
    [`http://2130706434:${port}/`, 'blocked_address'],
    [`http://0x7f000002:${port}/`, 'blocked_address'],
    [`http://0177.0.0.2:${port}/`, 'blocked_address'],
    [`http://[::ffff:127.0.0.2]:${port}/`, 'blocked_address'],
    [`http://localhost:${port + 1}/`, 'bad_port'],
    ['http://localhost:8080/', 'bad_port'],
    ['http://example.com:8080/', 'bad_port'],
    ['ftp://example.com/image.png', 'bad_scheme'],
    ['file:///etc/passwd', 'bad_scheme'],
    ['http://user:secret@example.com/', 'bad_url'],
    ['http://[::1', 'bad_url'],
  ];

  test('a redirect to any blocked target is refused, after the allowed first hop only', async () => {
    const { port } = server.address() as AddressInfo;
    const results: string[] = [];
    for (const [target, reason] of redirectTargets(port)) {
      hits.length = 0;
      const got = await outcome(`${base}/redirect?to=${encodeURIComponent(target)}`, { ...strict, allow });
      results.push(`${target} → ${got}`);
      expect(got, target).toBe(reason);
      expect(hits, target).toEqual(['/redirect']);
    }
    console.log(results.join('\n'));
  });
});

describe('the address policy', () => {
  const policy = addressPolicy();

  test('plain public unicast is allowed, in both families and through NAT64', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::6810:84e5', '::ffff:93.184.216.34', '64:ff9b::5db8:d822']) {
      expect(policy.allows(address), address).toBe(true);
    }
  });

  test('everything else is refused', () => {
    const refused = [
      '127.0.0.1',
      '0.0.0.0',
      '10.1.2.3',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '192.0.0.1',
      '198.18.0.1',
      '240.0.0.1',
      '255.255.255.255',
      '224.0.0.251',
      '::',
      '::1',
      '::ffff:10.0.0.1',
      '::ffff:0:7f00:1',
      '::127.0.0.1',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      'fec0::1',
      'ff02::1',
      '64:ff9b::127.0.0.1',
      '64:ff9b:1::a00:1',
      '2002:a00:1::1',
      '2001::1',
      '2001:db8::1',
      'not-an-address',
    ];
    expect(refused.filter((address) => policy.allows(address))).toEqual([]);
  });

  test('the allow list opens exactly its ranges, also through IPv4-mapped IPv6', () => {
    const allowing = addressPolicy(['127.0.0.1/32', 'fd00::/8']);
    expect(allowing.allows('127.0.0.1')).toBe(true);
    expect(allowing.allows('::ffff:127.0.0.1')).toBe(true);
    expect(allowing.allows('fd12::1')).toBe(true);
    expect(allowing.allows('127.0.0.2')).toBe(false);
    expect(allowing.allows('::1')).toBe(false);
  });
});

test('FETCH_ALLOW_CIDRS and FETCH_ALLOW_PORTS are empty by default', () => {
  expect(loadConfig({}).fetching).toMatchObject({ allowCidrs: [], allowPorts: [] });
});

test('FETCH_ALLOW_CIDRS and FETCH_ALLOW_PORTS are read as lists and validated', () => {
  expect(loadConfig({ FETCH_ALLOW_CIDRS: '10.1.0.0/16, fd00::/8', FETCH_ALLOW_PORTS: '8080,9000' }).fetching).toMatchObject({ allowCidrs: ['10.1.0.0/16', 'fd00::/8'], allowPorts: [8080, 9000] });
  expect(() => loadConfig({ FETCH_ALLOW_CIDRS: '10.1.0.0' })).toThrow(ConfigError);
  expect(() => loadConfig({ FETCH_ALLOW_CIDRS: '10.1.0.0' })).toThrow(/FETCH_ALLOW_CIDRS/);
  expect(() => loadConfig({ FETCH_ALLOW_PORTS: '80a' })).toThrow(/FETCH_ALLOW_PORTS/);
  expect(() => loadConfig({ FETCH_ALLOW_PORTS: '70000' })).toThrow(/FETCH_ALLOW_PORTS/);
});

test("the fetch settings' former names (IMPORT_*) are still read; the FETCH_* names win", () => {
  const former = {
    IMPORT_ALLOW_CIDRS: '10.1.0.0/16',
    IMPORT_ALLOW_PORTS: '8080',
    IMPORT_HEADERS_TIMEOUT_SECONDS: '7',
    IMPORT_HOST_COOLDOWN_SECONDS: '30',
    IMPORT_PENDING_PER_USER: '50',
    IMPORT_CONCURRENCY_PER_USER: '2',
  };
  expect(loadConfig(former).fetching).toEqual({ allowCidrs: ['10.1.0.0/16'], allowPorts: [8080], headersTimeoutMs: 7_000, hostCooldownMs: 30_000, pendingPerUser: 50, concurrencyPerUser: 2 });
  const both = {
    ...former,
    FETCH_ALLOW_CIDRS: '',
    FETCH_ALLOW_PORTS: '9000',
    FETCH_HEADERS_TIMEOUT_SECONDS: '3',
    FETCH_HOST_COOLDOWN_SECONDS: '0',
    FETCH_PENDING_PER_USER: '5',
    FETCH_CONCURRENCY_PER_USER: '1',
  };
  expect(loadConfig(both).fetching).toEqual({ allowCidrs: [], allowPorts: [9000], headersTimeoutMs: 3_000, hostCooldownMs: 0, pendingPerUser: 5, concurrencyPerUser: 1 });
  expect(() => loadConfig({ IMPORT_PENDING_PER_USER: '0' })).toThrow(ConfigError);
});

test('the fetch, upload and image budget settings have their defaults', () => {
  const config = loadConfig({});
  expect(config.fetching).toMatchObject({ headersTimeoutMs: 5_000, hostCooldownMs: 60_000, pendingPerUser: 1000, concurrencyPerUser: 1 });
  expect(config.uploads).toMatchObject({ inFlight: 16, inFlightPerUser: 4, timeoutMs: 60_000 });
  expect(config.imageBudget).toEqual({ perUser: 1000, windowMs: 900_000 });
  // One image at a time in the embedded mode ({} has no DATABASE_URL); config.test.ts checks both modes.
  expect(config.imageProcessing).toEqual({ concurrency: 1, queue: 20, timeoutSeconds: 10 });
});

test("the image budget's former name, UPLOAD_RATE_LIMIT_PER_USER, is still read; IMAGE_BUDGET_PER_USER wins", () => {
  expect(loadConfig({ UPLOAD_RATE_LIMIT_PER_USER: '7' }).imageBudget.perUser).toBe(7);
  expect(loadConfig({ UPLOAD_RATE_LIMIT_PER_USER: '7', IMAGE_BUDGET_PER_USER: '9' }).imageBudget.perUser).toBe(9);
});

test('the import and upload settings are validated', () => {
  expect(() => loadConfig({ UPLOADS_IN_FLIGHT: '2', UPLOADS_IN_FLIGHT_PER_USER: '3' })).toThrow(ConfigError);
  expect(() => loadConfig({ FETCH_HEADERS_TIMEOUT_SECONDS: '0' })).toThrow(/FETCH_HEADERS_TIMEOUT_SECONDS/);
});
