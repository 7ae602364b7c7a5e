import { migrateToLatest } from '../../db/migrate.ts';
import { openDatabase } from '../../db/connect.ts';
import { replaceDemoPassword, seedDemoData } from '../../db/seed.ts';
import { pino } from 'pino';
import { hashMatches, hashPassword } from '../auth/passwords.ts';
import { DEV_DEMO_PASSWORD, loadConfig } from '../config.ts';
import { EventBus } from '../bus/event-bus.ts';
import { queueFetches } from '../pins/image-fetch-job.ts';
import { createMediaStorage } from '../images/create-storage.ts';
import { appJobs } from '../job-handlers.ts';
import { startJobQueue } from '../jobs/queue.ts';

// `npm run db:migrate` and `npm run db:seed`, against DATABASE_URL (or the embedded PGlite folder).
// It lives with the app, not in db/: it needs the app's config and its password and username rules,
// and the data layer must not reach up for them.
const command = process.argv[2];
if (command !== 'migrate' && command !== 'seed') {
  console.error('usage: node backend/cli/db.ts migrate|seed');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase(config.database);
try {
  if (command === 'migrate') {
    const applied = await migrateToLatest(database.db);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } else {
    const seeded = await seedDemoData(database.db, { demo: config.demo, hashPassword });
    if (seeded) {
      // Queue the pictures' imports (the app's instances run them): a send-only queue, no workers.
      const logger = pino({ level: 'warn' });
      const storage = await createMediaStorage(config.media);
      const jobs = await startJobQueue({
        database,
        // No handler runs here (no workers), so no budget is ever asked.
        setup: appJobs({
          storage,
          fetching: config.fetching,
          budget: { take: async () => ({ ok: true }) },
          changeRetentionHours: config.changes.retentionHours,
          imageSweepGraceHours: config.imageSweep.graceHours,
        }),
        events: new EventBus((error) => logger.error({ err: error }, 'event listener failed')),
        logger,
        config: { ...config.jobs, workers: false },
      });
      await queueFetches(jobs.sender, database.db, seeded.pins);
      await jobs.stop(0);
    }
    console.log(seeded ? `Seeded demo data: ${seeded.pins.length} pins (demo login: ${config.demo.email}).` : 'Demo data already present.');
    // Production refuses the default demo password (loadConfig stops here without DEMO_PASSWORD);
    // a database seeded outside production still has it, so seeding there replaces it.
    if (!seeded && config.env === 'production') {
      const replaced = await replaceDemoPassword(database.db, { email: config.demo.email, from: DEV_DEMO_PASSWORD, to: config.demo.password, verify: hashMatches, hashPassword });
      if (replaced) console.log('The demo account had the default password: it now has DEMO_PASSWORD.');
    }
  }
} finally {
  await database.close();
}
