// Scratch databases live in scripts/lib, where the benchmark can use them too; tests import them from here.
export { createTestDatabase, REDIS_URL } from '../../scripts/lib/database.ts';
