import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// pgbench (Debian's postgresql-client) running one custom script: what Postgres alone does, the
// baseline the benchmarks print the app's figures beside.

export interface PgbenchRun {
  /** The script's text (pgbench's language: `\set`, SQL statements). One run of it is one transaction. */
  script: string;
  clients: number;
  seconds: number;
  /** `-D name=value` variables. */
  defines?: Record<string, number | string>;
}

/** Transactions (script runs) per second. */
export async function pgbenchTps(databaseUrl: string, run: PgbenchRun): Promise<number> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pinboard-pgbench-'));
  try {
    const script = path.join(dir, 'script.sql');
    writeFileSync(script, run.script);
    const args = ['-n', '-c', String(run.clients), '-j', String(Math.min(2, run.clients)), '-T', String(Math.max(1, Math.round(run.seconds))), '-f', script];
    for (const [name, value] of Object.entries(run.defines ?? {})) args.push('-D', `${name}=${value}`);
    args.push(databaseUrl);
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn('pgbench', args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
      child.once('error', reject);
      child.once('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`pgbench exited with ${code}:\n${text}`))));
    });
    const tps = /tps = ([0-9.]+) \(without initial connection time\)/.exec(output)?.[1];
    if (!tps) throw new Error(`no tps in pgbench's output:\n${output}`);
    return Number(tps);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
