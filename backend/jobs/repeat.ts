/**
 * Calls `send` (which queues a housekeeping job) every `intervalMs` from this instance, and once at
 * start. pg-boss runs no schedules here (no cron, see queue.ts), and a timer per instance needs no
 * coordination: with N instances the job runs N times per interval, and a run right after another
 * finds nothing to do. Returns a function that stops it.
 */
export function sendRepeatedly(send: () => Promise<unknown>, options: { intervalMs: number; onError: (error: unknown) => void }): () => void {
  const sendOnce = () => void send().catch(options.onError);
  sendOnce();
  const timer = setInterval(sendOnce, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
