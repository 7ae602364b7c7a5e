import { execFile } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { ApiClient, signUpUser } from '../support/client.ts';
import { startAppProcess } from '../support/processes.ts';
import { withTestServer } from '../support/use-test-server.ts';

// The embedded mode keeps everything, password hashes included, in a folder on disk (PGLITE_DIR).
// No other account on the machine may read or change it: every folder 0700, every file 0600 — a
// new folder as well as one an older version left with loose permissions.

const parent = mkdtempSync(path.join(tmpdir(), 'pinboard-data-'));
const dataDir = path.join(parent, 'data', 'pglite');
afterAll(() => rmSync(parent, { recursive: true, force: true }));

/** Every folder and file at or under `dir` (symlinks not followed) with its permission bits. */
function modes(dir: string): Array<{ file: string; mode: string }> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  return [dir, ...entries.map((entry) => path.join(entry.parentPath, entry.name))].map((file) => ({
    file: path.relative(parent, file),
    mode: (lstatSync(file).mode & 0o777).toString(8).padStart(3, '0'),
  }));
}

/** The entries some other account could read, write or enter. */
function exposed(dir: string): Array<{ file: string; mode: string }> {
  return modes(dir).filter(({ mode }) => mode.slice(1) !== '00');
}

/** Asserts that nothing at or under `dir` is exposed, naming the first few offenders. */
function expectPrivate(dir: string): void {
  const loose = exposed(dir);
  expect(loose.slice(0, 5), `${loose.length} entries open to other accounts`).toEqual([]);
}

async function runEmbedded(use: (url: string) => Promise<void>): Promise<void> {
  await withTestServer({ db: 'pglite', env: { PGLITE_DIR: dataDir } }, async (server) => {
    await use(server.url);
  });
}

describe('the embedded data folder', () => {
  let email = '';
  let password = '';

  test('a new data folder, and the folder created above it, are private to the account running the app', async () => {
    await runEmbedded(async (url) => {
      const signedUp = await signUpUser(url, 'datadir');
      email = signedUp.user.email;
      password = signedUp.password;
    });
    const all = modes(path.join(parent, 'data'));
    console.log(`${all.length} entries under data/`);
    expect(all.length).toBeGreaterThan(100);
    expectPrivate(path.join(parent, 'data'));
  });

  test('an existing data folder with loose permissions is made private on start, data intact', async () => {
    // What an older version left behind: folders 0777, files 0666.
    for (const { file } of modes(dataDir)) {
      const full = path.join(parent, file);
      chmodSync(full, lstatSync(full).isDirectory() ? 0o777 : 0o666);
    }
    expect(exposed(dataDir).length).toBeGreaterThan(100);

    await runEmbedded(async (url) => {
      const client = new ApiClient(url);
      const login = await client.post('/api/auth/login', { email, password });
      expect(login.status).toBe(200);
    });
    expectPrivate(dataDir);
  });
});

describe('npm start in a fresh folder', () => {
  const home = mkdtempSync(path.join(tmpdir(), 'pinboard-start-'));
  const data = path.join(home, 'data');
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  // The defaults: ./data/pglite and ./data/media under the working folder, no services.
  const env = { DATABASE_URL: undefined, REDIS_URL: undefined, PGLITE_DIR: './data/pglite', MEDIA_DIR: './data/media', AUTO_SEED: 'false', STATIC_DIR: path.resolve('dist/public') };
  const folderModes = () => ['data', 'data/media', 'data/pglite'].map((folder) => `${folder} ${(lstatSync(path.join(home, folder)).mode & 0o777).toString(8)}`);

  async function startAndStop(): Promise<void> {
    // The usual login umask (this test process may hold PGlite's 077, which the child would inherit).
    const umask = process.umask(0o022);
    let app: Awaited<ReturnType<typeof startAppProcess>>;
    try {
      app = await startAppProcess(env, { cwd: home, name: 'datadir', echo: false });
    } finally {
      process.umask(umask);
    }
    try {
      expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    } finally {
      await app.stop();
    }
  }

  test('creates ./data, ./data/media and ./data/pglite private (0700): no other account may list them', async () => {
    await startAndStop();
    console.log(folderModes().join(', '));
    expect(folderModes()).toEqual(['data 700', 'data/media 700', 'data/pglite 700']);
    expectPrivate(data);
  });

  test('makes existing ones private at start, when this account owns them', async () => {
    // What an older version left behind (0755).
    for (const folder of ['data', 'data/media']) chmodSync(path.join(home, folder), 0o755);
    await startAndStop();
    expect(folderModes()).toEqual(['data 700', 'data/media 700', 'data/pglite 700']);
  });
});

test('closing the embedded database shuts PGlite down: a process that opens, uses and closes it exits by itself', async () => {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'pinboard-close-')), 'data');
  const script = `
    import { openDatabase } from ${JSON.stringify(path.resolve('db/connect.ts'))};
    const database = await openDatabase({ kind: 'pglite', dir: ${JSON.stringify(dir)} });
    await database.db.selectNoFrom((eb) => eb.val(1).as('one')).execute();
    await database.close();
    console.log('closed');`;
  // A PGlite left open keeps the process alive; the bound only stops a hang from hanging the suite.
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 });
  expect(stdout.trim()).toBe('closed');
  rmSync(path.dirname(dir), { recursive: true, force: true });
});
