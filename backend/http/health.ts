import { Router } from 'express';
import type { Redis } from 'ioredis';
import type { Database } from '../../db/connect.ts';

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}

/** /healthz: the process runs. /readyz: the database (and Redis, when used) answer. */
export function healthRoutes(deps: { database: Database; redis?: Redis | undefined; lifecycle?: { shuttingDown: boolean } | undefined }): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const checks: Record<string, 'ok' | 'down'> = {};
    const probe = async (name: string, check: () => Promise<unknown>) => {
      checks[name] = await withTimeout(check(), 1500).then(
        () => 'ok' as const,
        () => 'down' as const,
      );
    };
    await Promise.all([probe('database', () => deps.database.ping()), ...(deps.redis ? [probe('redis', () => (deps.redis as Redis).ping())] : [])]);
    // A draining instance says so, so that a balancer with health checks stops sending to it.
    if (deps.lifecycle?.shuttingDown) checks.shutdown = 'down';
    const ready = Object.values(checks).every((state) => state === 'ok');
    res.status(ready ? 200 : 503).json({ status: ready ? 'ok' : 'unavailable', checks });
  });
  return router;
}
