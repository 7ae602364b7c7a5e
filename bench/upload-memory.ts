import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { type ApiClient, signUpUser } from '../scripts/lib/client.ts';
import { createTestDatabase } from '../scripts/lib/database.ts';
import { startAppProcess } from '../scripts/lib/processes.ts';

// `npm run bench:upload-memory [-- --parallel 16 --mb 19]`: what parallel uploads cost the server's
// memory. The app runs in its own process on Postgres (a throw-away database, so the embedded
// database's own memory is not counted); N uploads of a
// real ~19 MB JPEG are sent at once from N/4 users (UPLOADS_IN_FLIGHT_PER_USER is 4) and the
// process's resident memory (VmRSS, read from /proc every 20 ms) is printed before, at its peak and
// after, against the same for one upload alone, measured in the same run. Before uploads were
// streamed to a temporary file, 40 parallel uploads of 20 MB took the server from 510 MB to
// 1,479 MB. Target: ≤ 100 MB of growth for 16 parallel 19 MB uploads. Prints figures, never fails.

const { values } = parseArgs({ options: { parallel: { type: 'string', default: '16' }, mb: { type: 'string', default: '19' } } });
const PARALLEL = Number(values.parallel);
const TARGET_MB = Number(values.mb);

const cleanups = cleanupsOnExit();
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function rssOf(pid: number): number {
  const line =
    readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:')) ?? '';
  return Number(/(\d+)/.exec(line)?.[1] ?? 0) * 1024;
}

/** A real JPEG of about `targetMb` MB (sensor-like noise at quality 96), padded to exactly that size. */
async function photoOf(targetMb: number, seed: number): Promise<Buffer> {
  const side = Math.round(Math.sqrt((targetMb * 1024 * 1024) / 0.9));
  const jpeg = await sharp({ create: { width: side, height: Math.round(side * 0.75), channels: 3, background: { r: seed % 255, g: 90, b: 160 }, noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .jpeg({ quality: 96 })
    .toBuffer();
  const size = Math.floor(targetMb * 1024 * 1024);
  if (jpeg.length >= size) return jpeg.subarray(0, size);
  const padded = Buffer.alloc(size);
  jpeg.copy(padded);
  return padded;
}

/** Runs `work` while sampling the process's RSS: the resident size before, at the peak, and after. */
async function measure(pid: number, work: () => Promise<unknown>): Promise<{ before: number; peak: number; after: number; ms: number }> {
  const before = rssOf(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  const ms = performance.now() - started;
  peak = Math.max(peak, rssOf(pid));
  return { before, peak, after: rssOf(pid), ms };
}

console.log(`bench:upload-memory — ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)}; ${PARALLEL} parallel uploads of ${TARGET_MB} MB`);
const mediaDir = mkdtempSync(path.join(tmpdir(), 'pinboard-bench-media-'));
cleanups.push(async () => rmSync(mediaDir, { recursive: true, force: true }));
delete process.env.REDIS_URL;
const database = await createTestDatabase();
cleanups.push(() => database.drop());
const app = await startAppProcess(
  { DATABASE_URL: database.url, AUTO_MIGRATE: 'true', AUTO_SEED: 'false', MEDIA_DIR: mediaDir, API_RATE_LIMIT_PER_IP: '1000000000', IMAGE_BUDGET_PER_USER: '1000000', LOG_LEVEL: 'warn' },
  { name: 'app' },
);
cleanups.push(() => app.stop());
const pid = app.child.pid as number;

try {
  const users: ApiClient[] = [];
  for (let i = 0; i < Math.ceil(PARALLEL / 4); i++) users.push((await signUpUser(app.url, 'membench')).client);
  console.log('making the pictures…');
  const photos = await Promise.all(Array.from({ length: PARALLEL + 2 }, (_, i) => photoOf(TARGET_MB, i)));
  const upload = async (client: ApiClient, bytes: Buffer) => {
    const res = await client.upload('/api/images/', { bytes, name: 'big.jpg', type: 'image/jpeg' });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.body)}`);
  };
  // Warm-up: libvips, the database and the code paths are loaded before anything is measured.
  await upload(users[0] as ApiClient, photos[PARALLEL + 1] as Buffer);
  const one = await measure(pid, () => upload(users[0] as ApiClient, photos[PARALLEL] as Buffer));
  const many = await measure(pid, () => Promise.all(photos.slice(0, PARALLEL).map((bytes, i) => upload(users[i % users.length] as ApiClient, bytes))));

  console.log('\n| uploads at once | RSS before | peak | growth | after | time |');
  console.log('|---|---|---|---|---|---|');
  for (const [label, m] of [
    ['1', one],
    [String(PARALLEL), many],
  ] as const) {
    console.log(`| ${label} × ${TARGET_MB} MB | ${mb(m.before)} | ${mb(m.peak)} | ${mb(m.peak - m.before)} | ${mb(m.after)} | ${(m.ms / 1000).toFixed(1)} s |`);
  }
  const growth = (many.peak - many.before) / 1024 / 1024;
  console.log(`\n${PARALLEL} parallel uploads grew RSS by ${growth.toFixed(0)} MB (one alone: ${mb(one.peak - one.before)}); target ≤ 100 MB ${growth <= 100 ? '✓' : '✗'}`);
} finally {
  await cleanups.run();
}
