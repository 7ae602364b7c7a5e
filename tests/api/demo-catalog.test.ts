// The demo set shipped in db/demo-images (built by scripts/demo-images.ts): every catalog entry is a
// real picture of the stated size in a format the image pipeline takes, its licence is recorded,
// and the set stays within what the repository should carry.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { DEMO_IMAGES_DIR, demoImages, demoImageUrl } from '../../db/demo-catalog.ts';
import { useTestServer } from '../support/use-test-server.ts';

const images = demoImages();
const shape = (w: number, h: number) => (w / h > 1.2 ? 'landscape' : h / w > 1.2 ? 'portrait' : 'square');

describe('the demo catalog', () => {
  test('a few hundred pictures, each a file of its stated size and kind that the image pipeline accepts', async () => {
    expect(images.length).toBeGreaterThanOrEqual(240);
    expect(images.length).toBeLessThanOrEqual(300);
    for (const image of images) {
      const meta = await sharp(path.join(DEMO_IMAGES_DIR, image.file)).metadata();
      expect(meta.format, image.file).toBe(image.kind === 'photo' ? 'jpeg' : 'webp');
      expect([meta.width, meta.height], image.file).toEqual([image.width, image.height]);
      expect(Math.max(image.width, image.height), image.file).toBeLessThanOrEqual(1200);
    }
    // Nothing else in the folder but the catalog and the licences.
    const files = readdirSync(DEMO_IMAGES_DIR).sort();
    expect(files).toEqual([...images.map((i) => i.file), 'LICENSES.md', 'catalog.json'].sort());
    const bytes = files.reduce((sum, file) => sum + statSync(path.join(DEMO_IMAGES_DIR, file)).size, 0);
    console.log(`demo set: ${images.length} pictures, ${(bytes / 1e6).toFixed(1)} MB`);
    expect(bytes).toBeLessThanOrEqual(30e6);
  });

  test('titles are distinct; every description ends with its 2–4 lower-case #tags', () => {
    expect(new Set(images.map((i) => i.title)).size).toBe(images.length);
    for (const image of images) {
      expect(image.tags.length, image.title).toBeGreaterThanOrEqual(2);
      expect(image.tags.length, image.title).toBeLessThanOrEqual(4);
      for (const tag of image.tags) expect(tag).toMatch(/^[a-z0-9]+$/);
      expect(image.description.endsWith(` ${image.tags.map((t) => `#${t}`).join(' ')}`), image.title).toBe(true);
      expect(image.description.length).toBeLessThanOrEqual(2000);
      expect(image.title.length).toBeLessThanOrEqual(200);
    }
  });

  test('varied: photos and drawings in every shape, and so are the first dozen', () => {
    const kinds = (list: typeof images) => new Set(list.map((i) => i.kind));
    const shapes = (list: typeof images) => new Set(list.map((i) => shape(i.width, i.height)));
    expect(kinds(images)).toEqual(new Set(['photo', 'drawing']));
    expect(shapes(images.filter((i) => i.kind === 'photo'))).toEqual(new Set(['landscape', 'portrait', 'square']));
    expect(shapes(images.filter((i) => i.kind === 'drawing'))).toEqual(new Set(['landscape', 'portrait', 'square']));
    expect(kinds(images.slice(0, 12))).toEqual(new Set(['photo', 'drawing']));
    expect(shapes(images.slice(0, 12))).toEqual(new Set(['landscape', 'portrait', 'square']));
  });

  test('every picture has its source and licence recorded in LICENSES.md', () => {
    const licenses = readFileSync(path.join(DEMO_IMAGES_DIR, 'LICENSES.md'), 'utf8');
    for (const image of images) {
      expect(image.license, image.file).not.toBe('');
      const row = licenses.split('\n').find((line) => line.startsWith(`| ${image.file} |`));
      expect(row, image.file).toBeDefined();
      expect(row?.endsWith(`| ${image.license} |`), image.file).toBe(true);
      expect(licenses).toContain(`## ${image.package} `);
    }
  });
});

describe('the full demo seed', () => {
  const server = useTestServer({ seed: true });

  test('one pin per picture, newest first, spread over five authors, weeks and boards', async () => {
    const db = server.server.database.db;
    const pins = await db
      .selectFrom('pins')
      .innerJoin('users', 'users.id', 'pins.user_id')
      .select(['pins.id', 'title', 'image_url', 'username', 'pins.created_at'])
      .orderBy('pins.created_at', 'desc')
      .execute();
    expect(pins.map((p) => p.title)).toEqual(images.map((i) => i.title));
    expect(pins.map((p) => p.image_url)).toEqual(images.map(demoImageUrl));
    expect(new Set(pins.map((p) => p.username))).toEqual(new Set(['demo', 'maya', 'leo', 'noor', 'kai']));
    const days = (Number(pins[0]?.created_at) - Number(pins.at(-1)?.created_at)) / 86_400_000;
    expect(days).toBeGreaterThan(30);
    // The seed's answer lists the same pins, with their files.
    expect(server.seeded?.pins.map((p) => p.id)).toEqual(pins.map((p) => p.id));
    expect(server.seeded?.pins.map((p) => path.basename(p.file))).toEqual(images.map((i) => i.file));

    const boards = await db.selectFrom('boards').select(['name', 'pin_count']).orderBy('id').execute();
    expect(boards.map((b) => b.name)).toEqual(['Photo walk', 'Space and stars', 'Creatures', 'Good times', 'Kitchen table']);
    for (const board of boards) expect(board.pin_count, board.name).toBe(12);
    const likes = await db
      .selectFrom('pins')
      .select((eb) => eb.fn.sum<number>('likes_count').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(likes.n)).toBeGreaterThan(images.length / 3);
    const comments = await db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(comments.n)).toBeGreaterThanOrEqual(4);
  });
});
