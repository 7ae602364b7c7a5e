// Process-wide memory settings that have to be in place before the process starts: Node's V8 flags
// and glibc's malloc tuning are read once, at start-up. backend/main.ts imports this module first;
// when a setting is missing it replaces the process with itself plus the settings
// (process.execve: same pid and stdio), before anything else is loaded. Not where there is no
// execve (Windows), and not in a process forked with an IPC channel (tests, benchmarks), which an
// exec would close: a benchmark passes processSettings() itself. Figures: docs/footprint.md.
import { execve } from 'node:process';

/** Set in the relaunched process, so it never relaunches again. */
const APPLIED = 'PINBOARD_PROCESS_SETTINGS';

/**
 * The embedded mode only (its Postgres is WebAssembly): Liftoff, V8's baseline Wasm compiler, for
 * all of it. V8's optimising tier compiling Postgres' hot functions in the background took up to
 * 500 MB at once while the first start ran its migrations; Liftoff code runs queries about 1.5×
 * slower once warm, still about 1 ms each.
 */
const EMBEDDED_NODE_FLAGS = ['--liftoff-only'];

/**
 * glibc: two malloc arenas instead of eight per core (libvips' and argon2's threads each kept up to
 * 64 MB), and large blocks (image buffers) always mapped and returned on free, never left to
 * fragment the heap (glibc otherwise raises that threshold to 32 MB as blocks are freed).
 */
const GLIBC_MALLOC = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

function isGlibc(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  const header = report?.header;
  return process.platform === 'linux' && header?.glibcVersionRuntime !== undefined;
}

/** The Node flags and environment a server with `env` should run with, beyond what it has. */
export function processSettings(env: NodeJS.ProcessEnv, execArgv: readonly string[] = []): { flags: string[]; env: Record<string, string> } {
  const embedded = env.DATABASE_URL === undefined || env.DATABASE_URL === '';
  const flags = embedded ? EMBEDDED_NODE_FLAGS.filter((flag) => !execArgv.includes(flag)) : [];
  // A value the operator set wins.
  const malloc = isGlibc() ? Object.entries(GLIBC_MALLOC).filter(([name]) => env[name] === undefined) : [];
  return { flags, env: { ...Object.fromEntries(malloc), [APPLIED]: '1' } };
}

function applyProcessSettings(): void {
  if (process.env[APPLIED] !== undefined || process.send !== undefined || typeof execve !== 'function') return;
  const settings = processSettings(process.env, process.execArgv);
  if (settings.flags.length === 0 && Object.keys(settings.env).length === 1) return;
  try {
    execve(process.execPath, [process.execPath, ...process.execArgv, ...settings.flags, ...process.argv.slice(1)], { ...process.env, ...settings.env });
  } catch {
    // Not replaced (a platform without it): run as started.
  }
}

applyProcessSettings();
