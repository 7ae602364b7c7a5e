import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { classifyFrame, type Frame, pseudoStage, type Stage } from './stages.ts';

// Reads a V8 CPU profile (`node --cpu-prof`) and adds up, per time window (one per scenario), the
// time of the samples in each stage of a request (bench/rest/stages.ts). A sample stands for the
// time until the next sample, as Chrome's DevTools count it. The profile's timestamps are
// microseconds on the monotonic clock, the clock of bench/rest/load.ts's windows, so a scenario's
// samples are the ones taken during its measured window.
//
// How to read the figures: they are time on the instance's main thread. On an idle machine that is
// its CPU time; on a loaded one it also holds the moments the OS gave the core to another process
// while that stage was running, so compare stages within one run rather than runs on different
// days. "idle" is the event loop waiting (for Postgres, Redis or the next request) and is not part
// of a request's cost.

interface CallFrame {
  functionName: string;
  url: string;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface StageTimes {
  /** Microseconds per stage (busy time only). */
  byStage: Map<Stage, number>;
  busy: number;
  idle: number;
  samples: number;
}

export interface Window {
  from: number;
  to: number;
}

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
}

/** Whether the windows lie inside the profile: else the clocks differ and windows cannot be used. */
export function coversWindows(profile: CpuProfile, windows: Window[]): boolean {
  return windows.every((w) => w.from >= profile.startTime && w.to <= profile.endTime);
}

/** The stage time of the samples inside each window. */
export function stageTimes(profile: CpuProfile, windows: Window[]): StageTimes[] {
  const stageOf = classifyNodes(profile.nodes);
  const totals = windows.map(() => ({ byStage: new Map<Stage, number>(), busy: 0, idle: 0, samples: 0 }));
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    const duration = profile.timeDeltas[i + 1] ?? 0;
    const stage = stageOf.get(profile.samples[i] as number) ?? 'other';
    for (const [w, window] of windows.entries()) {
      if (at < window.from || at >= window.to) continue;
      const total = totals[w] as StageTimes;
      total.samples += 1;
      if (stage === 'idle') {
        total.idle += duration;
      } else {
        total.busy += duration;
        total.byStage.set(stage, (total.byStage.get(stage) ?? 0) + duration);
      }
    }
  }
  return totals;
}

/** Every node's stage: the first strong rule from the node up, else the first weak one, else other. */
function classifyNodes(nodes: ProfileNode[]): Map<number, Stage | 'idle'> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const hasParent = new Set(nodes.flatMap((node) => node.children ?? []));
  const result = new Map<number, Stage | 'idle'>();
  // Top-down, carrying the nearest strong and weak match above each node.
  const stack: Array<{ id: number; strong: Stage | undefined; weak: Stage | undefined }> = nodes
    .filter((node) => !hasParent.has(node.id))
    .map((node) => ({ id: node.id, strong: undefined, weak: undefined }));
  while (stack.length > 0) {
    const { id, strong, weak } = stack.pop() as (typeof stack)[number];
    const node = byId.get(id);
    if (!node) continue;
    const match = classifyFrame(toFrame(node.callFrame));
    const nearestStrong = match && !match.weak ? match.stage : strong;
    const nearestWeak = match?.weak ? match.stage : weak;
    result.set(id, pseudoStage(node.callFrame.functionName) ?? nearestStrong ?? nearestWeak ?? 'other');
    for (const child of node.children ?? []) stack.push({ id: child, strong: nearestStrong, weak: nearestWeak });
  }
  return result;
}

function toFrame(callFrame: CallFrame): Frame {
  const { functionName, url } = callFrame;
  if (!url.startsWith('file:')) return { functionName, url, packageName: undefined, file: url };
  const file = fileURLToPath(url).split(path.sep).join('/');
  const at = file.lastIndexOf('/node_modules/');
  if (at >= 0) {
    const rest = file.slice(at + '/node_modules/'.length).split('/');
    const scoped = rest[0]?.startsWith('@') === true;
    const packageName = scoped ? `${rest[0]}/${rest[1]}` : rest[0];
    return { functionName, url, packageName, file: rest.slice(scoped ? 2 : 1).join('/') };
  }
  return { functionName, url, packageName: undefined, file: path.relative(REPO_ROOT, file).split(path.sep).join('/') };
}
