import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureClientBuilt } from '../scripts/lib/browser.ts';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { createTestDatabase } from '../scripts/lib/database.ts';
import { startAppProcess } from '../scripts/lib/processes.ts';
import { seedDatabase } from './feed/seed.ts';
import { type ScrollFigures, scrollFigures } from './grid/scroll.ts';

// `npm run bench:grid [-- --pins 5000 --steps 150 --rounds 2 --baseline main]`: what scrolling the
// home grid costs the browser's main thread (docs/grid.md), this client against a baseline client
// built from another git ref (by default `main`) in the same run, on the same server and data:
// long tasks, slow frames, script / layout / style time, the most cards mounted, and whether the
// mounted cards were in reading order at every step. The rounds alternate the two clients. A
// benchmark: it never fails on timings.

const { values } = parseArgs({
  options: {
    pins: { type: 'string', default: '5000' },
    steps: { type: 'string', default: '150' },
    rounds: { type: 'string', default: '2' },
    baseline: { type: 'string', default: 'main' },
  },
});
const count = (value: string | undefined) => {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`not a positive integer: ${value}`);
  return n;
};
const pins = count(values.pins);
const steps = count(values.steps);
const rounds = count(values.rounds);
const repoRoot = fileURLToPath(new URL('../', import.meta.url));

delete process.env.REDIS_URL;
delete process.env.DATABASE_URL;
const cleanups = cleanupsOnExit();

/** The client of `ref`, built into a temporary folder (its sources from git, this checkout's node_modules). */
function buildBaseline(ref: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'pinboard-grid-baseline-'));
  cleanups.push(async () => rmSync(root, { recursive: true, force: true }));
  const archive = execFileSync('git', ['-C', repoRoot, 'archive', ref, 'frontend', 'contract', 'vite.config.ts', 'tsconfig.json', 'package.json']);
  spawnSync('tar', ['-x', '-C', root], { input: archive });
  symlinkSync(path.join(repoRoot, 'node_modules'), path.join(root, 'node_modules'));
  const built = spawnSync(process.execPath, [path.join(repoRoot, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: root, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`baseline build failed:\n${built.stdout}\n${built.stderr}`);
  return path.join(root, 'dist/public');
}

const row = (name: string, f: ScrollFigures) =>
  `| ${name} | ${f.pinsSeen} | ${f.maxMounted} | ${f.longTasks} (${Math.round(f.longTaskMs)} ms) | ${f.slowFrames} / ${f.frames} | ${f.p95FrameMs.toFixed(1)} | ${Math.round(f.scriptMs)} | ${Math.round(f.layoutMs)} | ${Math.round(f.styleMs)} | ${f.outOfOrder} / ${f.steps} |`;

try {
  console.log(`bench:grid — ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)}; ${pins} pins, ${steps} wheel steps per scroll, ${rounds} rounds, baseline ${values.baseline}`);
  ensureClientBuilt();
  const baselineDir = buildBaseline(values.baseline as string);
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  await seedDatabase({ kind: 'postgres', url: database.url }, { pins });
  const env = { DATABASE_URL: database.url, AUTO_MIGRATE: 'false', AUTO_SEED: 'false', API_RATE_LIMIT_PER_IP: '1000000000', LOG_LEVEL: 'warn' };
  const current = await startAppProcess(env, { name: 'this client' });
  cleanups.push(() => current.stop());
  const baseline = await startAppProcess({ ...env, STATIC_DIR: baselineDir }, { name: 'baseline client' });
  cleanups.push(() => baseline.stop());
  const results: Array<[string, ScrollFigures]> = [];
  for (let round = 1; round <= rounds; round++) {
    for (const [name, app] of round % 2
      ? ([
          ['this', current],
          [values.baseline, baseline],
        ] as const)
      : ([
          [values.baseline, baseline],
          ['this', current],
        ] as const)) {
      results.push([`${name} (round ${round})`, await scrollFigures(app.url, steps)]);
    }
  }
  console.log('\n| client | pins seen | most mounted | long tasks | frames > 50 ms | p95 frame ms | script ms | layout ms | style ms | steps out of reading order |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, figures] of results) console.log(row(name, figures));
  const sum = (prefix: string, pick: (f: ScrollFigures) => number) => results.filter(([n]) => n.startsWith(prefix)).reduce((a, [, f]) => a + pick(f), 0);
  const base = `${values.baseline} `;
  console.log(
    `\nthis / ${values.baseline}: script time ×${(
      sum('this', (f) => f.scriptMs) /
      Math.max(
        1,
        sum(base, (f) => f.scriptMs),
      )
    ).toFixed(2)}, layout ×${(
      sum('this', (f) => f.layoutMs) /
      Math.max(
        1,
        sum(base, (f) => f.layoutMs),
      )
    ).toFixed(2)}, long-task time ×${(
      sum('this', (f) => f.longTaskMs) /
      Math.max(
        1,
        sum(base, (f) => f.longTaskMs),
      )
    ).toFixed(2)}`,
  );
} finally {
  await cleanups.run();
}
