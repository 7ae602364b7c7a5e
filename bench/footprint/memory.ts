import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { processSettings } from '../../backend/process-settings.ts';
import type { Cleanups } from '../../scripts/lib/cleanups.ts';
import { type ApiClient, signUpUser } from '../../scripts/lib/client.ts';
import { type AppProcess, type InstanceStats, startAppProcess } from '../../scripts/lib/processes.ts';
import { type ResidentBreakdown, residentBreakdown, residentNow } from './smaps.ts';

// The server process' memory, measured from outside (the kernel's figures for the process) and
// from inside (V8, the Wasm memory, libvips, over the instance's IPC channel).

/** Samples a process' resident size every 50 ms and keeps the highest (VmHWM cannot be reset per phase). */
export function sampleResident(pid: number): { stop(): number } {
  let peak = 0;
  const sample = () => {
    try {
      peak = Math.max(peak, residentNow(pid).rss);
    } catch {
      // The process has exited.
    }
  };
  sample();
  const timer = setInterval(sample, 50);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

export interface IdleMemory {
  rss: number;
  stats: InstanceStats;
  breakdown: ResidentBreakdown;
}

/** After a settling pause: resident size before the forced GC the stats request makes, then the breakdown. */
export async function idleMemory(app: AppProcess, settleMs: number): Promise<IdleMemory> {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  const pid = app.child.pid as number;
  const rss = residentNow(pid).rss;
  const stats = await app.stats();
  return { rss, stats, breakdown: residentBreakdown(pid, stats.wasmMemory) };
}

/** The client build `npm start` runs first, in its own process: its time and peak resident size. */
export async function measureBuild(): Promise<{ seconds: number; peak: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
  const sampler = sampleResident(child.pid as number);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const peak = sampler.stop();
  if (code !== 0) throw new Error(`vite build exited with ${code}`);
  return { seconds: (performance.now() - started) / 1000, peak };
}

/** How many seeded pins still show their /seed-images/ picture (their import has not finished). */
async function importsLeft(url: string): Promise<number> {
  let cursor: string | null = null;
  let left = 0;
  do {
    const answer = await fetch(`${url}/api/pins/?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    const page = (await answer.json()) as { pins: Array<{ image_url: string }>; nextCursor: string | null };
    left += page.pins.filter((pin) => pin.image_url.startsWith('/seed-images/')).length;
    cursor = page.nextCursor;
  } while (cursor);
  return left;
}

export async function waitForImports(url: string, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while ((await importsLeft(url)) > 0) {
    if (performance.now() - started > timeoutMs) throw new Error(`the demo's imports had not finished after ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return (performance.now() - started) / 1000;
}

/**
 * How long the server is left alone after the imports before "idle" is read: V8 collects the
 * imports' garbage only once its memory reducer sees the allocation rate drop (seconds later).
 */
const IDLE_SETTLE_MS = 30_000;

export interface FirstStart {
  app: AppProcess;
  readySeconds: number;
  importSeconds: number;
  /** Highest resident size from launch until the demo's imports finished. */
  peak: number;
  idle: IdleMemory;
}

/**
 * `npm start`'s server on a fresh clone: an empty data folder, the process settings main.ts would
 * relaunch itself with (passed here, since a forked process keeps its IPC channel instead), the
 * demo seed, and its imports until the last pin shows its stored image. The app is left running.
 */
export async function firstStart(cleanups: Cleanups, extraEnv: Record<string, string> = {}): Promise<FirstStart> {
  const work = mkdtempSync(path.join(tmpdir(), 'pinboard-footprint-'));
  cleanups.push(async () => rmSync(work, { recursive: true, force: true }));
  // The embedded mode: no DATABASE_URL or REDIS_URL, whatever this shell has.
  const env = { PGLITE_DIR: path.join(work, 'pglite'), MEDIA_DIR: path.join(work, 'media'), LOG_LEVEL: 'warn', HOST: '127.0.0.1', DATABASE_URL: undefined, REDIS_URL: undefined, ...extraEnv };
  const settings = processSettings({ ...process.env, ...env }, []);
  const started = performance.now();
  const app = await startAppProcess({ ...env, ...settings.env }, { execArgv: settings.flags, name: 'embedded', echo: false });
  cleanups.push(() => app.stop());
  const readySeconds = (performance.now() - started) / 1000;
  const sampler = sampleResident(app.child.pid as number);
  const importSeconds = readySeconds + (await waitForImports(app.url, 600_000));
  // The kernel's high-water mark covers the start-up before sampling began.
  const peak = Math.max(sampler.stop(), residentNow(app.child.pid as number).peak);
  return { app, readySeconds, importSeconds, peak, idle: await idleMemory(app, IDLE_SETTLE_MS) };
}

/** A PNG of noise that compresses to nothing: `bytes` on the wire, and to decode. */
export async function noisePng(bytes: number): Promise<Buffer> {
  const side = Math.floor(Math.sqrt(bytes / 3));
  return sharp({ create: { width: side, height: side, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 90 } } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

export interface UploadBurst {
  before: number;
  peak: number;
  after: number;
  statuses: Record<string, number>;
  fileBytes: number;
  seconds: number;
}

/** A user may have this many uploads in flight (the server's own bound): the burst is spread over users. */
const UPLOADS_PER_USER = 4;

/** `count` uploads of one `bytes`-sized image at once, from signed-up users sending 4 each. */
export async function uploadBurst(app: AppProcess, count: number, bytes: number): Promise<UploadBurst> {
  const clients: ApiClient[] = [];
  for (let i = 0; i < Math.ceil(count / UPLOADS_PER_USER); i++) clients.push((await signUpUser(app.url, 'burst')).client);
  const file = await noisePng(bytes);
  const pid = app.child.pid as number;
  const before = residentNow(pid).rss;
  const sampler = sampleResident(pid);
  const started = performance.now();
  // A refused upload may close the connection mid-body (fetch then fails): counted as 'no answer'.
  const answers = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      (clients[i % clients.length] as ApiClient)
        .upload('/api/images/', { bytes: file, name: `burst-${i}.png`, type: 'image/png' })
        .catch((error: unknown) => ({ status: `no answer (${String((error as Error).cause ?? error)})` })),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const peak = sampler.stop();
  const statuses: Record<string, number> = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  return { before, peak, after: residentNow(pid).rss, statuses, fileBytes: file.length, seconds };
}
