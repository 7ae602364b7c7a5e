import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { processSettings } from '../backend/process-settings.ts';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { createTestDatabase, REDIS_URL } from '../scripts/lib/database.ts';
import { startAppProcess } from '../scripts/lib/processes.ts';
import { firstStart, idleMemory, type IdleMemory, measureBuild, uploadBurst, waitForImports } from './footprint/memory.ts';
import { initialScripts, PHONE, phoneLoads } from './footprint/phone.ts';

// `npm run bench:footprint [-- --skip-build --skip-services --skip-phone --phone-runs 3]`: how
// light the app is (docs/footprint.md), in one run on this machine:
//   1. the client build `npm start` runs first (its own process): time and peak memory;
//   2. the embedded server's first start on a fresh data folder, with the settings `npm start`
//      gives it: peak resident size until the demo's imports are done, then idle, and where the
//      idle memory is (V8, the Wasm memory, glibc's arenas, program files, the rest);
//   3. 16 uploads of a 19 MB image at once: what they add;
//   4. the home page and a pin link on a throttled phone (Chromium: 1.6 Mb/s, 150 ms, 4× CPU, 390 × 844, cold):
//      first contentful paint and first image (median of runs), and the initial JavaScript;
//   5. the services mode: an instance on Postgres and Redis, idle after the same seed.
// It prints figures against the targets and never fails on them.

const { values } = parseArgs({
  options: {
    'skip-build': { type: 'boolean', default: false },
    'skip-services': { type: 'boolean', default: false },
    'skip-phone': { type: 'boolean', default: false },
    'skip-uploads': { type: 'boolean', default: false },
    'phone-runs': { type: 'string', default: '3' },
  },
});

const MB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const KB = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const verdict = (ok: boolean) => (ok ? '✓' : '✗');
const log = (line: string) => console.log(line);
const cleanups = cleanupsOnExit();
const rows: string[][] = [];
const notes: string[] = [];
const row = (figure: string, value: string, target: string, ok?: boolean) => rows.push([figure, value, ok === undefined ? target : `${target} ${verdict(ok)}`]);

function breakdownLines(label: string, idle: IdleMemory): string[] {
  const { stats, breakdown: b } = idle;
  const spaces = Object.entries(stats.heapSpaces)
    .filter(([, bytes]) => bytes >= 2 ** 20)
    .map(([name, bytes]) => `${name.replace('_space', '')} ${MB(bytes)}`)
    .join(', ');
  return [
    `${label}: ${MB(idle.rss)} resident (${MB(b.total)} after a full GC), of which:`,
    `  V8 heap: ${MB(stats.heapUsed)} used of ${MB(stats.heapTotal)} committed (${spaces}); buffers outside it (external) ${MB(stats.external)}, of which ArrayBuffers ${MB(stats.arrayBuffers)}`,
    `  PGlite's Wasm memory: ${MB(stats.wasmMemory)} reserved, ${MB(b.wasm)} resident`,
    `  libvips: cache ${MB(stats.images.cacheBytes)} in ${stats.images.cacheItems} operations; ${stats.images.queued} queued, ${stats.images.processing} processing`,
    `  glibc malloc: main arena ${MB(b.mallocMain)}, ${b.threadArenas} thread arenas ${MB(b.mallocThreads)}`,
    `  program and library files ${MB(b.files)}; other anonymous memory (V8's pages and code, stacks, large blocks) ${MB(b.otherAnonymous)}`,
  ];
}

const started = performance.now();
log(`bench:footprint — ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), ${MB(totalmem())} RAM, Node ${process.version}, load average ${loadavg()[0]?.toFixed(1)} at start`);
const details: string[] = [];
try {
  if (!values['skip-build']) {
    log('Client build (npm start runs it first, as its own process)…');
    const build = await measureBuild();
    row('client build (vite, own process, before the server starts)', `${build.seconds.toFixed(1)} s, peak ${MB(build.peak)}`, 'not the server process');
  }

  log('Embedded first start on a fresh data folder (seed, then the demo pictures through the image pipeline)…');
  const embedded = await firstStart(cleanups);
  const idle = embedded.idle.rss;
  row(
    'embedded: peak during the first start (until the demo imports are done)',
    `${MB(embedded.peak)} (ready ${embedded.readySeconds.toFixed(1)} s, imports done ${embedded.importSeconds.toFixed(1)} s)`,
    '≤ 450 MB',
    embedded.peak <= 450 * 2 ** 20,
  );
  row('embedded: idle after the imports', MB(idle), '≤ 250 MB', idle <= 250 * 2 ** 20);
  details.push(...breakdownLines('Embedded, idle', embedded.idle));

  if (!values['skip-uploads']) {
    log('16 uploads of a 19 MB image at once…');
    const burst = await uploadBurst(embedded.app, 16, 19 * 2 ** 20);
    const added = burst.peak - burst.before;
    row('embedded: 16 parallel 19 MB uploads add (peak over idle)', `${MB(added)} (peak ${MB(burst.peak)}, ${MB(burst.after)} 3 s later)`, '≤ 100 MB', added <= 100 * 2 ** 20);
    notes.push(`Uploads: ${(burst.fileBytes / 2 ** 20).toFixed(1)} MB PNG each, answered ${JSON.stringify(burst.statuses)} in ${burst.seconds.toFixed(1)} s.`);
  }

  if (!values['skip-phone']) {
    const scripts = initialScripts(path.resolve('dist/public'));
    row('initial JavaScript (entry + module preloads, gzip -9)', `${KB(scripts.gzip)} (${KB(scripts.bytes)} raw, ${scripts.files.length} files)`, '≤ 150 KB', scripts.gzip <= 150 * 1024);
    log(
      `Home page and a pin link on a throttled phone (${PHONE.downKbps / 1000} Mb/s, ${PHONE.rttMs} ms RTT, ${PHONE.cpuSlowdown}× CPU, ${PHONE.width}×${PHONE.height}, cold), ${values['phone-runs']} runs…`,
    );
    // A shared pin link is the other cold start people make on a phone: the newest public pin's page.
    const newest = (await (await fetch(`${embedded.app.url}/api/pins/?limit=1`)).json()) as { pins: { id: number }[] };
    const pinId = newest.pins[0]?.id;
    const pages: [name: string, pathname: string][] = [['home', '/']];
    if (pinId !== undefined) pages.push(['pin link', `/pins/${pinId}`]);
    for (const [name, pathname] of pages) {
      const loads = await phoneLoads(new URL(pathname, embedded.app.url).toString(), Number(values['phone-runs']));
      const fcp = median(loads.map((l) => l.fcp));
      const image = median(loads.map((l) => l.firstImage));
      row(`phone ${name}: first contentful paint (median)`, `${s(fcp)} (runs: ${loads.map((l) => s(l.fcp)).join(', ')})`, '≤ 1.0 s', fcp <= 1000);
      row(`phone ${name}: first image (median)`, `${s(image)} (runs: ${loads.map((l) => s(l.firstImage)).join(', ')})`, '≤ 2.0 s', image <= 2000);
      notes.push(`Phone ${name}: ${KB(median(loads.map((l) => l.transferred)))} transferred in ${median(loads.map((l) => l.requests))} requests until the first image.`);
    }
  }
  await embedded.app.stop();

  if (!values['skip-services']) {
    log('Services mode: one instance on Postgres and Redis, migrated and seeded, imports done…');
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const media = mkdtempSync(path.join(tmpdir(), 'pinboard-footprint-media-'));
    cleanups.push(async () => rmSync(media, { recursive: true, force: true }));
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL,
      SOCKET_CHANNEL: `pinboard-footprint-${randomBytes(4).toString('hex')}`,
      AUTO_MIGRATE: 'true',
      AUTO_SEED: 'true',
      MEDIA_DIR: media,
      HOST: '127.0.0.1',
    };
    const settings = processSettings({ ...process.env, ...env }, []);
    const app = await startAppProcess({ ...env, ...settings.env }, { execArgv: settings.flags, name: 'services', echo: false });
    cleanups.push(() => app.stop());
    await waitForImports(app.url, 600_000);
    const services = await idleMemory(app, 5_000);
    row('services: an instance idle (Postgres + Redis), after the same seed', MB(services.rss), '— (printed)');
    details.push(...breakdownLines('Services, idle', services));
  }
} finally {
  await cleanups.run();
}

const width = [0, 1, 2].map((i) => Math.max(...rows.map((r) => (r[i] as string).length), 6));
const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(width[i] as number)).join(' | ')} |`;
log(
  [
    '',
    '=== bench:footprint results ===',
    `${new Date().toISOString().slice(0, 10)}; ${cpus().length} CPUs, ${MB(totalmem())} RAM, Node ${process.version}; load average at the end ${loadavg()[0]?.toFixed(1)}; total ${((performance.now() - started) / 1000).toFixed(0)} s`,
    '',
    line(['figure', 'value', 'target']),
    line(width.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    ...details,
    ...notes,
  ].join('\n'),
);
