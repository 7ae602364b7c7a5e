import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanupsOnExit } from '../scripts/lib/cleanups.ts';
import { createTestDatabase, REDIS_URL } from '../scripts/lib/database.ts';
import { type AppProcess, startAppProcess } from '../scripts/lib/processes.ts';
import { seedLine } from './feed/report.ts';
import { seedDatabase } from './feed/seed.ts';
import { prepareFixture, signOut } from './rest/fixture.ts';
import { type Measured, percentile, runVisitors, type Timing, type Visitor } from './rest/load.ts';
import { coversWindows, readProfile, stageTimes } from './rest/profile.ts';
import { median, perSecond, pooled, resultsTable, type Row, stagesTable, warnings } from './rest/report.ts';
import { pgbenchPairs, type PgbenchSetup, preparePgbench } from './rest/pgbench.ts';
import { BASELINES, type Described, PAGE_SIZE, SCENARIOS } from './rest/scenarios.ts';

// `npm run bench:rest [-- --rounds 3 --duration 5 --connections 50 --only anon-hot,signed-in --profile]`:
// the REST read path against the platform. In one run: bare node:http and Express 5
// hello worlds, then the app, each as two processes with the load split over both, as in the
// scaled deployment (the app on a fresh Postgres database seeded with SQL, and Redis). Prints
// req/s, p50/p99 and the share of the Express baseline per scenario, with the targets.
// --profile instead serves the reads (or the scenarios --only names) from one instance under
// `--cpu-prof` and prints what a request costs, stage by stage (bench/rest/stages.ts). A benchmark: it never fails on figures.
//
// The app runs as in production (NODE_ENV=production, LOG_LEVEL=info) except two things:
// - its log goes to a file in a temporary folder, not the terminal: pino still formats and writes
//   every line, as it would into a container's log pipe, and the terminal stays readable;
// - API_RATE_LIMIT_PER_IP is a billion, so the limiter does all its work (a Redis INCR per
//   request) without refusing the benchmark's single address. Any non-2xx answer is still
//   counted and flagged.
// Redis is the machine's, in a database of its own (--redis-db) so the benchmark's per-address
// counter is not the one the test suites' servers share; the visitors sign out at the end and
// the counters expire with their window.

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '50' },
    only: { type: 'string' },
    pins: { type: 'string', default: '100000' },
    hot: { type: 'string', default: '1000' },
    'deep-pages': { type: 'string', default: '100' },
    'skip-baselines': { type: 'boolean', default: false },
    rounds: { type: 'string', default: '3' },
    profile: { type: 'boolean', default: false },
    'profile-interval': { type: 'string', default: '500' },
    'redis-db': { type: 'string', default: '12' },
  },
});
const number = (name: keyof typeof values, min: number) => {
  const n = Number(String(values[name]).replaceAll('_', ''));
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name}: not a number ≥ ${min}: ${String(values[name])}`);
  return n;
};
const timing: Timing = { seconds: number('duration', 0.5), warmupSeconds: number('warmup', 0) };
const connections = Math.round(number('connections', 1));
const pins = Math.round(number('pins', 1000));
const profiling = values.profile;
// Rounds: every row is measured once per round, the Express baseline included, and its share of the
// baseline is the median of its rounds' shares. On a shared machine the speed of the whole machine
// drifts by a third between minutes; a ratio taken within one round cancels that drift.
const rounds = profiling ? 1 : Math.round(number('rounds', 1));
const only = values.only?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => !SCENARIOS.some((s) => s.name === name));
if (unknown?.length) throw new Error(`--only: unknown scenario ${unknown.join(', ')} (known: ${SCENARIOS.map((s) => s.name).join(', ')})`);
// A profile covers the reads, unless --only names a write.
const scenarios = SCENARIOS.filter((s) => (only ? only.includes(s.name) : !profiling || s.read));
if (scenarios.length === 0) throw new Error(`no scenario to run${profiling ? ' (--profile runs the reads unless --only names others)' : ''}`);

const cleanups = cleanupsOnExit();
const cleanUp = () => cleanups.run();

const log = (line: string) => console.log(line);
const work = mkdtempSync(path.join(tmpdir(), 'pinboard-bench-rest-'));
cleanups.push(async () => rmSync(work, { recursive: true, force: true }));
// The profile is the one thing a run leaves behind, when it got as far as reading it.
const profileDir = profiling ? mkdtempSync(path.join(tmpdir(), 'pinboard-rest-profile-')) : undefined;
let keepProfile = false;
if (profileDir) cleanups.push(async () => (keepProfile ? undefined : rmSync(profileDir, { recursive: true, force: true })));

async function start(env: Record<string, string>, options: Parameters<typeof startAppProcess>[1]): Promise<AppProcess> {
  const app = await startAppProcess(env, options);
  cleanups.push(() => app.stop());
  return app;
}

/** One visitor per connection; visitor i goes to instance i mod the instances, so both get half. */
const spread = (urls: string[], visitor: (index: number, url: string) => Visitor): Visitor[] => Array.from({ length: connections }, (_, i) => visitor(i, urls[i % urls.length] as string));

async function measure(scenario: Described, visitors: Visitor[]): Promise<Measured> {
  const measured: Measured = await runVisitors(visitors, timing);
  const unit = scenario.unit === 'pair' ? 'pairs/s' : 'req/s';
  log(
    `  ${scenario.name}: ${Math.round(perSecond(measured)).toLocaleString('en-US')} ${unit}, p50 ${percentile(measured.latencies, 50).toFixed(2)} ms, p99 ${percentile(measured.latencies, 99).toFixed(2)} ms`,
  );
  return measured;
}

async function countLines(file: string): Promise<number> {
  let lines = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
  }
  return lines;
}

const started = performance.now();
const cpu = cpus();
log(
  `bench:rest — ${cpu.length} CPUs (${cpu[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, load average ${loadavg()[0]?.toFixed(1)} at start; ` +
    `${connections} connections, ${timing.warmupSeconds} s warm-up + ${timing.seconds} s measured per scenario` +
    (profiling ? `; PROFILING one instance (--cpu-prof, ${values['profile-interval']} µs sampling)` : ''),
);

const rows: Row[] = [];
const notes: string[] = [];
let seedText: string;
let profileTable: string[] = [];
try {
  log(`Seeding ${pins.toLocaleString('en-US')} pins with SQL…`);
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  seedText = seedLine('Postgres', await seedDatabase({ kind: 'postgres', url: database.url }, { pins }));
  log(seedText);

  // The baselines' processes stay up beside the app's (idle while another row runs): each round
  // measures them again.
  const baselines: Array<{ baseline: (typeof BASELINES)[number]; urls: string[] }> = [];
  if (!profiling && !values['skip-baselines']) {
    for (const baseline of BASELINES) {
      log(`Baseline ${baseline.label}: two processes…`);
      const entry = `bench/rest/hello-${baseline.name}.ts`;
      const pair = [await start({}, { entry }), await start({}, { entry })];
      baselines.push({ baseline, urls: pair.map((p) => p.url) });
    }
  }

  const databaseName = new URL(database.url).pathname.slice(1);
  const redisUrl = new URL(REDIS_URL);
  redisUrl.pathname = `/${number('redis-db', 0)}`;
  const env = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl.toString(),
    SOCKET_CHANNEL: `pinboard-bench:${databaseName}`,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    DEMO_PASSWORD: randomBytes(16).toString('hex'),
    AUTO_MIGRATE: 'false',
    AUTO_SEED: 'false',
    LOG_LEVEL: 'info',
    API_RATE_LIMIT_PER_IP: '1000000000',
    AUTH_RATE_LIMIT_PER_IP: '1000000',
  };
  const logFiles = [path.join(work, 'app-1.log'), path.join(work, 'app-2.log')];
  const apps: AppProcess[] = [];
  if (profileDir) {
    const execArgv = ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-interval', String(number('profile-interval', 10))];
    apps.push(await start(env, { execArgv, logFile: logFiles[0] as string }));
  } else {
    for (const logFile of logFiles) apps.push(await start(env, { logFile }));
  }
  const appUrls = apps.map((app) => app.url);
  log(`App: ${apps.length} instance(s), log at info into ${work}; preparing visitors (${connections} sign-ups) and cursors…`);
  const fixture = await prepareFixture(database.url, appUrls, { hot: number('hot', 1), deepPages: number('deep-pages', 1), users: connections, pageSize: PAGE_SIZE });
  let signedIn = true;
  const signOutOnce = async () => {
    if (signedIn) await signOut(fixture.users);
    signedIn = false;
  };
  cleanups.push(signOutOnce);
  notes.push(
    `Hot set: the ${fixture.hotIds.length.toLocaleString('en-US')} newest pins (${fixture.commentedIds.length} with comments); ` +
      `deeper pages: ${fixture.deepCursors.length} cursors of pages 2–${fixture.deepCursors.length + 1}; ${fixture.users.length} signed-in visitors, one per connection.`,
  );
  // Writes against Postgres alone: pgbench on the same two functions, in each round, app idle.
  const pairScenario = scenarios.find((s) => s.name === 'favorite-pair');
  const pgbench: PgbenchSetup | undefined = pairScenario && !profiling ? await preparePgbench(database.url, 20, fixture.hotIds) : undefined;
  const pairShares: number[] = [];
  const pgbenchRates: number[] = [];
  const measuredRounds = new Map<Described, Measured[]>();
  const shares = new Map<Described, number[]>();
  const record = (scenario: Described, measured: Measured) => measuredRounds.set(scenario, [...(measuredRounds.get(scenario) ?? []), measured]);
  for (let round = 1; round <= rounds; round++) {
    if (rounds > 1) log(`Round ${round} of ${rounds}`);
    let express: number | undefined;
    for (const { baseline, urls } of baselines) {
      const measured = await measure(
        baseline,
        spread(urls, (_i, url) => baseline.visitor(url)),
      );
      record(baseline, measured);
      if (baseline.name === 'express') express = perSecond(measured);
    }
    for (const scenario of scenarios) {
      const measured = await measure(
        scenario,
        spread(appUrls, (i, url) => scenario.visitor(i, url, fixture)),
      );
      record(scenario, measured);
      if (express) shares.set(scenario, [...(shares.get(scenario) ?? []), perSecond(measured) / express]);
      if (scenario === pairScenario && pgbench) {
        const alone = await pgbenchPairs(database.url, pgbench, timing.seconds);
        log(`  Postgres alone (pgbench, ${pgbench.clients} clients, favorite_add + favorite_remove): ${Math.round(alone).toLocaleString('en-US')} pairs/s`);
        pgbenchRates.push(alone);
        pairShares.push(perSecond(measured) / alone);
      }
    }
  }
  if (pairShares.length) {
    notes.push(
      `Writes: favorite + unfavorite through the app against Postgres alone (pgbench, ${pgbench?.clients} clients calling the same two functions, measured right after it in each round): ` +
        `${(median(pairShares) * 100).toFixed(1)} % (median of rounds; pgbench ${pgbenchRates.map((r) => Math.round(r).toLocaleString('en-US')).join(', ')} pairs/s); target ≥ ${Math.round((pairScenario?.target?.ratio ?? 0) * 100)} %.`,
    );
  }
  for (const [scenario, measured] of measuredRounds) {
    const roundShares = shares.get(scenario);
    rows.push({ scenario, measured: pooled(measured), share: roundShares && median(roundShares), pgbenchShare: scenario === pairScenario && pairShares.length ? median(pairShares) : undefined });
  }

  // The instances stop (and the profile is written) before their log files are read.
  await signOutOnce();
  await Promise.all(apps.map((app) => app.stop()));
  const bytes = logFiles.reduce((sum, file) => sum + (statSync(file, { throwIfNoEntry: false })?.size ?? 0), 0);
  let lines = 0;
  for (const file of logFiles) if (statSync(file, { throwIfNoEntry: false })) lines += await countLines(file);
  const served = rows.filter((r) => SCENARIOS.some((s) => s === r.scenario)).reduce((sum, r) => sum + r.measured.requests, 0);
  notes.push(
    `App log (info): ${lines.toLocaleString('en-US')} lines, ${(bytes / 2 ** 20).toFixed(1)} MB (${Math.round(bytes / Math.max(1, lines))} B a line) for ${served.toLocaleString('en-US')} measured requests plus warm-ups.`,
  );

  if (profileDir) {
    const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no .cpuprofile was written to ${profileDir}`);
    const profile = readProfile(path.join(profileDir, file));
    const measuredRows = rows.filter((r) => SCENARIOS.some((s) => s === r.scenario));
    const windows = measuredRows.map((r) => r.measured.window);
    if (coversWindows(profile, windows)) {
      const times = stageTimes(profile, windows);
      profileTable = stagesTable(measuredRows.map((r, i) => ({ name: r.scenario.name, requests: r.measured.requests, times: times[i] as (typeof times)[number] })));
    } else {
      // Should the clocks ever disagree: the whole profile, against every request it served.
      const [times] = stageTimes(profile, [{ from: profile.startTime, to: profile.endTime + 1 }]);
      const requests = measuredRows.reduce((sum, r) => sum + r.measured.requests, 0);
      profileTable = [
        '(the scenario windows are not on the profile clock: the whole profiled run, warm-ups and set-up included)',
        ...stagesTable([{ name: 'whole run', requests, times: times as NonNullable<typeof times> }]),
      ];
    }
    keepProfile = true;
    notes.push(`CPU profile: ${path.join(profileDir, file)} (open it in Chrome DevTools → Performance, or VS Code).`);
  }
} finally {
  await cleanUp();
}

const express = rows.find((r) => r.scenario.name === 'express');
const lines = [
  '',
  '=== bench:rest results ===',
  `${cpu.length} CPUs, Node ${process.version}; load average at the end ${loadavg()[0]?.toFixed(1)}; total ${((performance.now() - started) / 1000).toFixed(0)} s`,
  seedText,
  ...notes,
  profiling
    ? `Each row: ${connections} keep-alive connections to ONE instance running under the profiler (not comparable with the targets), ${timing.warmupSeconds} s warm-up then ${timing.seconds} s measured.`
    : `Each row: ${connections} keep-alive connections, half to each of two processes, ${timing.warmupSeconds} s warm-up then ${timing.seconds} s measured, in each of ${rounds} round(s); "% Express" is the median of the rounds' shares of that round's Express baseline, req/s and latencies pool the rounds. ` +
      `p50/p99 are of all answers of both processes pooled (what a client behind a round-robin balancer sees); a pair's latency is the sum of its two requests'. ` +
      `"split": the share each process answered; "load CPU": the load generator's own CPU, in % of one core (near 100 % it, not the server, set the pace).`,
  '',
  ...resultsTable(rows, express ? perSecond(express.measured) : undefined, !profiling),
];
const loud = warnings(rows);
if (loud.length) lines.push('', ...loud);
if (profileTable.length) {
  lines.push(
    '',
    'Time per request by stage on the profiled instance (µs on its main thread per request it answered in the window; % of its busy time).',
    'A sample counts for the innermost stage on its stack (bench/rest/stages.ts); "1 core ≈ req/s" is 1 s / busy µs per request.',
    ...profileTable,
  );
}
log(lines.join('\n'));
