import { readFileSync } from 'node:fs';

// Where a process' resident memory is, from /proc/<pid>/smaps (Linux): what V8 and the process
// report cannot say — how much of the Wasm memory is touched, what glibc's malloc holds in its
// arenas, how much is program code.

interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  name: string;
  rss: number;
}

export interface ResidentBreakdown {
  /** Everything resident (the sum of every mapping's Rss). */
  total: number;
  /** The mapping that is the embedded database's Wasm memory (found by its size), resident part. */
  wasm: number;
  /** glibc malloc: the main arena ([heap]) and the threads' arenas (64 MB aligned reservations). */
  mallocMain: number;
  mallocThreads: number;
  threadArenas: number;
  /** Program and library files mapped in (node's own code, libvips, …). */
  files: number;
  /** Every other anonymous mapping: V8's heap and code, thread stacks, big malloc blocks. */
  otherAnonymous: number;
}

/** glibc's per-thread arenas are reservations of HEAP_MAX_SIZE (64 MB on 64-bit), aligned to it. */
const ARENA = 64n * 2n ** 20n;

function readMappings(pid: number): Mapping[] {
  const mappings: Mapping[] = [];
  let current: Mapping | undefined;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = { start: BigInt(`0x${head[1]}`), end: BigInt(`0x${head[2]}`), perms: head[3] as string, name: head[4] ?? '', rss: 0 };
      mappings.push(current);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rss = Number(rss[1]) * 1024;
  }
  return mappings;
}

/** `wasmBytes`: the Wasm memory's size as the process reports it (0: none). */
export function residentBreakdown(pid: number, wasmBytes: number): ResidentBreakdown {
  const mappings = readMappings(pid);
  const result: ResidentBreakdown = { total: 0, wasm: 0, mallocMain: 0, mallocThreads: 0, threadArenas: 0, files: 0, otherAnonymous: 0 };
  let wasmFound = wasmBytes === 0;
  for (const [index, m] of mappings.entries()) {
    result.total += m.rss;
    const size = m.end - m.start;
    if (m.name === '[heap]') result.mallocMain += m.rss;
    else if (m.name.startsWith('/')) result.files += m.rss;
    else if (m.name !== '') result.otherAnonymous += m.rss;
    else if (!wasmFound && m.perms.startsWith('rw') && size === BigInt(wasmBytes)) {
      result.wasm += m.rss;
      wasmFound = true;
    } else if (m.start % ARENA === 0n && m.perms.startsWith('rw') && isArena(m, mappings[index + 1])) {
      result.mallocThreads += m.rss;
      result.threadArenas += 1;
    } else result.otherAnonymous += m.rss;
  }
  return result;
}

/** A thread arena: its used part (rw) and the rest of its 64 MB reservation (no access) right after. */
function isArena(used: Mapping, next: Mapping | undefined): boolean {
  const size = used.end - used.start;
  if (size === ARENA) return true;
  return next !== undefined && next.start === used.end && next.perms.startsWith('---') && next.end - used.start === ARENA;
}

/** The kernel's own figures: resident now and the high-water mark, in bytes. */
export function residentNow(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
