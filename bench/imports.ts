import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import sharp from 'sharp';
import type { ImportDetail } from '../contract/imports.ts';
import { DEMO_IMAGES_DIR, demoImages } from '../db/demo-catalog.ts';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { type ApiClient, signUpUser } from '../scripts/lib/client.ts';
import { createTestDatabase } from '../scripts/lib/database.ts';
import { startAppProcess } from '../scripts/lib/processes.ts';
import { pinbackFile, startImageHost } from '../tests/support/import-fixtures.ts';

// `npm run bench:imports [-- --pins 10000 --boards 50]` (docs/import-export.md), through the real
// app in its own process on Postgres:
//   1. baseline: the same kind of pictures imported one pin at a time (POST /api/pins/ with a
//      remote image, until every pin has its stored image), in pins per second;
//   2. import throughput: a Pinback-style file of `pins` items in `boards` boards whose images
//      (distinct JPEGs of at most 1200 px, 2 % of them 404 or not an image) come from a local host;
//      pins per second from POST to done, and the ratio to the baseline;
//   3. the export of those pins: time, bytes, and the app's RSS growth while it streams (sampled
//      from /proc every 50 ms) against its RSS before.
// Targets (docs/import-export.md): ≥ 20 pins/s on this 2-core machine; export RSS growth ≤ 100 MB.
// A benchmark: it prints figures and verdicts and never fails on them.

const { values } = parseArgs({ options: { pins: { type: 'string', default: '10000' }, boards: { type: 'string', default: '50' }, baseline: { type: 'string', default: '100' } } });
const PINS = Number(values.pins);
const BOARDS = Number(values.boards);
const BASELINE = Number(values.baseline);
const cleanups = cleanupsOnExit();
const log = (line: string) => console.log(line);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory of a process, from /proc (bytes). */
function rssOf(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) * 1024;
}

log(`bench:imports — ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)} at start; ${PINS} pins in ${BOARDS} boards`);
const photos = demoImages()
  .filter((image) => image.kind === 'photo')
  .slice(0, 40)
  .map((image) => path.join(DEMO_IMAGES_DIR, image.file));
const pictures = await Promise.all(photos.map((file) => sharp(file).resize({ width: 1200, height: 1200, fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 82 }).toBuffer()));
log(
  `${pictures.length} base pictures, ${Math.round(pictures.reduce((sum, b) => sum + b.length, 0) / pictures.length / 1024)} KB on average (each item's file is one of them with pixels of its own: pictureVariant)`,
);
const host = await startImageHost(pictures);
cleanups.push(() => host.close());
const database = await createTestDatabase();
cleanups.push(() => database.drop());
const dataDir = mkdtempSync(path.join(tmpdir(), 'pinboard-bench-imports-'));
cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
delete process.env.REDIS_URL;
const app = await startAppProcess(
  {
    DATABASE_URL: database.url,
    AUTO_MIGRATE: 'true',
    AUTO_SEED: 'false',
    MEDIA_DIR: path.join(dataDir, 'media'),
    IMPORT_DIR: path.join(dataDir, 'imports'),
    FETCH_ALLOW_CIDRS: '127.0.0.1/32',
    FETCH_ALLOW_PORTS: host.port,
    FETCH_PENDING_PER_USER: '1000000',
    IMAGE_BUDGET_PER_USER: '1000000',
    UPLOAD_RATE_LIMIT_PER_USER: '1000000',
    API_RATE_LIMIT_PER_IP: '1000000000',
    LOG_LEVEL: 'warn',
  },
  { name: 'app' },
);
cleanups.push(() => app.stop());

/** The user's pins with a stored image, and how many distinct originals they store. */
async function storedOriginals(userId: number): Promise<{ pins: number; originals: number }> {
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    const { rows } = await db.query<{ pins: number; originals: number }>('select count(image_sha256)::int as pins, count(distinct image_sha256)::int as originals from pins where user_id = $1', [
      userId,
    ]);
    return rows[0] ?? { pins: 0, originals: 0 };
  } finally {
    await db.end();
  }
}

async function baseline(client: ApiClient): Promise<number> {
  const started = Date.now();
  const ids: number[] = [];
  for (let i = 0; i < BASELINE; i++) {
    const answer = await client.post<{ id: number }>('/api/pins/', { title: `Baseline ${i}`, imageUrl: `${host.url}/img/${1_000_000 + i}.jpg`, description: '' });
    ids.push(answer.body.id);
  }
  for (;;) {
    const pins = await Promise.all(ids.map((id) => client.get<{ image: unknown }>(`/api/pins/${id}`)));
    if (pins.every((pin) => pin.body.image !== null)) break;
    await sleep(200);
  }
  return BASELINE / ((Date.now() - started) / 1000);
}

try {
  const { client: first } = await signUpUser(app.url, 'baseline');
  const base = await baseline(first);
  log(`\n1. baseline, import by URL one pin at a time: ${base.toFixed(1)} pins/s (${BASELINE} pins)`);

  const { client, user: mover } = await signUpUser(app.url, 'mover');
  const { html, items } = pinbackFile(host.url, PINS, BOARDS, 50);
  const good = items.filter((item) => item.expect === 'pin').length;
  const started = Date.now();
  const posted = await client.upload<{ import: { id: number } }>('/api/imports', { bytes: Buffer.from(html), name: 'pinterest.html', type: 'text/html' });
  if (posted.status !== 202) throw new Error(`import answered ${posted.status}: ${JSON.stringify(posted.body)}`);
  const accepted = Date.now() - started;
  let detail: ImportDetail;
  let lastLog = Date.now();
  for (;;) {
    detail = (await client.get<ImportDetail>(`/api/imports/${posted.body.import.id}`)).body;
    if (detail.import.status === 'done' || detail.import.status === 'failed') break;
    if (Date.now() - lastLog > 30_000) {
      lastLog = Date.now();
      log(`   … ${detail.import.done + detail.import.failed} of ${PINS} after ${Math.round((Date.now() - started) / 1000)} s (load ${loadavg()[0]?.toFixed(1)})`);
    }
    await sleep(500);
  }
  const seconds = (Date.now() - started) / 1000;
  const rate = detail.import.done / seconds;
  log(
    `\n2. import of a ${(html.length / 1024 / 1024).toFixed(1)} MB Pinback file: accepted (202) in ${accepted} ms; ${detail.import.done} pins (+${detail.import.failed} failures, ${good} expected) in ${seconds.toFixed(1)} s`,
  );
  const stored = await storedOriginals(mover.id);
  log(`   ${stored.pins} pins with a stored image, ${stored.originals} distinct originals (each item's picture has pixels of its own)`);
  log(`   ${rate.toFixed(1)} pins/s — ${(rate / base).toFixed(2)}× the baseline — target ≥ 20 pins/s: ${rate >= 20 ? 'met' : 'NOT met'} (load average ${loadavg()[0]?.toFixed(1)})`);

  const before = rssOf(app.child.pid as number);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(app.child.pid as number));
  }, 50);
  const exportStarted = Date.now();
  const response = await fetch(`${app.url}/api/export`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  clearInterval(sampler);
  const growth = (peak - before) / 1024 / 1024;
  log(
    `\n3. export of ${detail.import.done} pins: ${(bytes / 1024 / 1024).toFixed(1)} MB in ${((Date.now() - exportStarted) / 1000).toFixed(1)} s; RSS ${Math.round(before / 1024 / 1024)} MB before, +${growth.toFixed(1)} MB at most while streaming — target ≤ 100 MB: ${growth <= 100 ? 'met' : 'NOT met'}`,
  );
} finally {
  await cleanups.run();
}
