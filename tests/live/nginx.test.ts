import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findNginx, type RunningNginx, SHARED_CONFIG, SHARED_HTTP_CONFIG, startNginx, topLevelConfig } from '../../scripts/nginx.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { freePort } from '../support/processes.ts';
import { connectSocket, type TestSocket } from '../support/sockets.ts';
import { useTestServer } from '../support/use-test-server.ts';

// The deployment's nginx config (deploy/nginx/*, rendered by scripts/nginx.ts) in front of a real
// app instance that trusts its loopback proxy (TRUST_PROXY=loopback), as `npm run cluster -- --nginx`
// runs it: the scheme a TLS terminator reports reaches the app (so its cookies are Secure), and one
// address cannot open more WebSocket connections than limit_conn allows.

const SOCKETS_PER_ADDRESS = 3;
/** Trusts loopback peers as TLS terminators (the default), with a small socket limit. */
let nginx: RunningNginx;
/** Trusts no peer's X-Forwarded-Proto: nginx faces the clients itself. */
let untrusting: RunningNginx;
const sockets: TestSocket[] = [];

const app = useTestServer({ db: 'postgres', env: { TRUST_PROXY: 'loopback', AUTH_RATE_LIMIT_PER_IP: '100000' } });
beforeAll(async () => {
  const upstreams = [Number(new URL(app.url).port)];
  nginx = await startNginx({ port: await freePort(), upstreams, socketsPerAddress: SOCKETS_PER_ADDRESS });
  untrusting = await startNginx({ port: await freePort(), upstreams, trustedProxies: [] });
});
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  await nginx?.stop();
  await untrusting?.stop();
});

/** Signs in through `baseUrl` and returns the session cookie the answer sets, attributes and all. */
async function signIn(baseUrl: string, email: string, password: string, headers: Record<string, string> = {}): Promise<string> {
  const client = new ApiClient(baseUrl);
  const response = await client.request('POST', '/api/auth/login', { json: { email, password }, headers });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith('pinboard.sid='));
  if (cookie === undefined) throw new Error(`no session cookie in ${JSON.stringify(response.headers.getSetCookie())}`);
  return cookie;
}

const isSecure = (cookie: string) => cookie.split(';').some((part) => part.trim().toLowerCase() === 'secure');

describe('the scheme behind a TLS terminator', () => {
  let email = '';
  let password = '';
  beforeAll(async () => {
    const signedUp = await signUpUser(nginx.url, 'proto');
    email = signedUp.user.email;
    password = signedUp.password;
  });

  test('X-Forwarded-Proto: https from a trusted terminator reaches the app: the session cookie is Secure', async () => {
    const cookie = await signIn(nginx.url, email, password, { 'X-Forwarded-Proto': 'https' });
    expect(isSecure(cookie)).toBe(true);
  });

  test('plain HTTP through nginx still gets a cookie the browser keeps over HTTP (not Secure)', async () => {
    expect(isSecure(await signIn(nginx.url, email, password))).toBe(false);
    expect(isSecure(await signIn(nginx.url, email, password, { 'X-Forwarded-Proto': 'http' }))).toBe(false);
  });

  test('nginx replaces the X-Forwarded-Proto of a peer it does not trust with its own scheme', async () => {
    const cookie = await signIn(untrusting.url, email, password, { 'X-Forwarded-Proto': 'https' });
    expect(isSecure(cookie)).toBe(false);
  });
});

/** A bare WebSocket upgrade request to Socket.IO: 101 when nginx lets it through, else nginx's answer. */
function upgrade(baseUrl: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}/socket.io/?EIO=4&transport=websocket`, {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
      },
    });
    request.once('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: '' });
    });
    request.once('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.once('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.once('error', reject);
    request.end();
  });
}

/** Tries to open a Socket.IO client through nginx; true when it connected (and stays open). */
async function tryConnect(): Promise<boolean> {
  try {
    sockets.push(await connectSocket(nginx.url));
    return true;
  } catch {
    return false;
  }
}

describe('open WebSocket connections per address', () => {
  test(`beyond ${SOCKETS_PER_ADDRESS} from one address, further sockets are refused with 429 until one closes`, async () => {
    const attempts = SOCKETS_PER_ADDRESS + 3;
    const outcomes: boolean[] = [];
    for (let i = 0; i < attempts; i++) outcomes.push(await tryConnect());
    const accepted = outcomes.filter(Boolean).length;
    console.log(`${attempts} sockets from 127.0.0.1 through nginx (limit ${SOCKETS_PER_ADDRESS}): ${accepted} accepted, ${attempts - accepted} refused`);
    expect(outcomes).toEqual(Array.from({ length: attempts }, (_, i) => i < SOCKETS_PER_ADDRESS));

    // What a refused client gets: 429 in the API's error shape, with a hint when to retry.
    const refused = await upgrade(nginx.url);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('10');
    const body = JSON.parse(refused.body) as { message: string; errors: string[]; fields: Record<string, string> };
    expect(body).toEqual({ message: expect.stringContaining('Too many open connections'), errors: [body.message], fields: {} });

    // The limit counts open connections: once one closes, the next one gets through. (nginx
    // notices the close asynchronously: retry for a while.)
    sockets.shift()?.disconnect();
    let reconnected = false;
    for (let i = 0; i < 50 && !reconnected; i++) {
      reconnected = await tryConnect();
      if (!reconnected) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(reconnected).toBe(true);
    expect(await tryConnect()).toBe(false);
  });
});

/** `nginx -t` on a config in `dir`; returns nginx's verdict. */
function nginxTest(dir: string, conf: string): { ok: boolean; output: string } {
  const result = spawnSync(findNginx(), ['-t', '-p', `${dir}/`, '-c', conf, '-e', path.join(dir, 'error.log')], { encoding: 'utf8' });
  return { ok: result.status === 0, output: `${result.stdout}${result.stderr}` };
}

describe('the shipped configs pass nginx -t', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pinboard-nginx-t-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the config scripts/nginx.ts renders (npm run cluster -- --nginx, the fault tests)', () => {
    const conf = path.join(dir, 'generated.conf');
    writeFileSync(conf, topLevelConfig({ port: 8080, upstreams: [8081, 8082] }, dir));
    const verdict = nginxTest(dir, conf);
    expect(verdict.output).toContain('test is successful');
    expect(verdict.ok).toBe(true);
  });

  // docker-compose.yml's, on this machine: the container's paths and service names replaced by
  // local ones (nginx resolves upstream host names while it reads the config).
  for (const name of ['compose.conf', 'compose-tls.conf']) {
    test(`deploy/nginx/${name}`, () => {
      const tls = path.join(dir, 'tls');
      mkdirSync(tls, { recursive: true });
      const openssl = spawnSync(
        'openssl',
        ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost', '-keyout', path.join(tls, 'privkey.pem'), '-out', path.join(tls, 'fullchain.pem')],
        { encoding: 'utf8' },
      );
      expect(openssl.status, openssl.stderr).toBe(0);
      writeFileSync(path.join(dir, 'pinboard.conf'), readFileSync(SHARED_CONFIG, 'utf8'));
      writeFileSync(path.join(dir, 'pinboard-http.conf'), readFileSync(SHARED_HTTP_CONFIG, 'utf8'));
      const local = readFileSync(path.resolve(path.dirname(SHARED_CONFIG), name), 'utf8')
        .replace(/\bapp[12]:8080\b/g, '127.0.0.1:8080')
        .replaceAll('/etc/nginx/tls/', `${tls}/`)
        .replace(
          /^http \{$/m,
          [`pid ${dir}/nginx.pid;`, 'http {', `  access_log ${dir}/access.log;`, ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((temp) => `  ${temp}_temp_path ${dir}/${temp};`)].join(
            '\n',
          ),
        );
      const conf = path.join(dir, name);
      writeFileSync(conf, local);
      const verdict = nginxTest(dir, conf);
      expect(verdict.output).toContain('test is successful');
      expect(verdict.ok).toBe(true);
    });
  }
});
