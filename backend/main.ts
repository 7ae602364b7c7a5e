// First, before the rest is loaded: may relaunch this process with its memory settings.
import './process-settings.ts';
import { ConfigError, loadConfig } from './config.ts';
import { answerStatsRequests } from './instance-stats.ts';
import { startServer } from './server.ts';

// Process entry: `npm start`. Reads the environment, serves until SIGTERM/SIGINT, exits 0 after a
// graceful shutdown.
async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServer(config);
  const mode = config.database.kind === 'pglite' ? `embedded PGlite (${config.database.dir})` : 'PostgreSQL';
  server.logger.info(
    { port: server.port, database: mode, sessions: config.redisClusterUrls ? 'redis cluster' : config.redisUrl ? 'redis' : 'in-process' },
    `Pinboard is listening on http://localhost:${server.port}`,
  );
  answerStatsRequests(server);
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.logger.info({ signal }, 'shutting down');
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) console.error(error.message);
  else console.error('Pinboard failed to start:', error);
  process.exit(1);
});
