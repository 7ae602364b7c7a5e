// Shared by the benchmarks: what a run set up (processes, databases, folders) is taken down at the
// end, on an error, or on Ctrl-C, in reverse order, so nothing is left behind.

export interface Cleanups {
  /** Registers a step; steps run last-registered first. */
  push(step: () => Promise<void>): void;
  /** Runs every registered step once (a failing step is reported, the rest still run). */
  run(): Promise<void>;
}

export function cleanupsOnExit(): Cleanups {
  const steps: Array<() => Promise<void>> = [];
  const run = async () => {
    for (const step of steps.splice(0).reverse()) await step().catch((error: unknown) => console.error('cleanup failed:', error));
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.log(`\n${signal}: cleaning up`);
      void run().finally(() => process.exit(130));
    });
  }
  return { push: (step) => steps.push(step), run };
}
