import { loadConfig } from '../backend/config.ts';
import { openDatabase } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { seedDemoData } from './seed.ts';

// `npm run db:migrate` and `npm run db:seed`, against DATABASE_URL (or the embedded PGlite folder).
const command = process.argv[2];
if (command !== 'migrate' && command !== 'seed') {
  console.error('usage: node db/cli.ts migrate|seed');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase(config.database);
try {
  if (command === 'migrate') {
    const applied = await migrateToLatest(database.db);
    console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  } else {
    const seeded = await seedDemoData(database.db, { demo: config.demo });
    console.log(seeded ? `Seeded demo data (demo login: ${config.demo.email}).` : 'Demo data already present.');
  }
} finally {
  await database.close();
}
