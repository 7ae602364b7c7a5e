// Duplicates in the system Chromium (docs/duplicates.md), at a phone's and a desktop's size: the
// Duplicates page lists the reader's look-alike pins (their pictures' hashes set in SQL, as
// processing finds them), merges them with Undo, and the New Pin page warns before saving a
// picture the reader has already saved. Screenshots of both are kept for review.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ImageUploaded } from '../../contract/duplicates.ts';
import type { Pin } from '../../contract/pins.ts';
import { signUpUser } from '../support/client.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, expectAccessible, expectPath, expectVisible, PHONE, screenshot } from './browser.ts';

const app = useBrowserServer();

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expectPath(page, '/');
}

/** A reader with two look-alike pins (3 bits apart), the older on a board; the older's bytes, to upload again. */
async function readerWithDuplicates(width: number) {
  const { client, user, password } = await signUpUser(app.url, 'dupe2e');
  const db = app.server.database.db;
  const pins: Pin[] = [];
  let bytes: Buffer = Buffer.alloc(0);
  for (const [index, title] of ['Lighthouse', 'Lighthouse, again'].entries()) {
    const picture = await jpeg(width + index, 300);
    const stored = await client.upload<ImageUploaded>('/api/images/', { bytes: picture, name: 'lighthouse.jpg', type: 'image/jpeg' });
    expect(stored.status).toBe(201);
    const hash = (0x1234_5678_9abc_def0n ^ BigInt(index * 0b111)).toString();
    await sql`update images set phash = ${hash}::bigint, phash_mirror = ${'-1'}::bigint where source_sha256 = ${createHash('sha256').update(picture).digest('hex')}`.execute(db);
    const pin = await client.post<Pin>('/api/pins/', { title, imageUrl: stored.body.image.url });
    pins.push(pin.body);
    if (index === 0) bytes = picture;
  }
  const board = await client.post<{ id: number }>('/api/boards/', { name: 'Seaside walks' });
  await client.post(`/api/boards/${board.body.id}/pins`, { pin_id: pins[0]?.id });
  return { email: user.email, password, pins, bytes };
}

describe('duplicates', () => {
  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`${label}: the Duplicates page, a merge undone, and the warning before saving again`, async () => {
      const reader = await readerWithDuplicates(label === 'phone' ? 400 : 420);
      const { page, errors, context } = await app.openTab(viewport, { touch: label === 'phone' });
      await logIn(page, reader.email, reader.password);

      await page.getByRole('button', { name: 'Profile menu' }).click();
      await page.getByRole('link', { name: 'Duplicates' }).click();
      await expectPath(page, '/duplicates');
      const group = page.getByRole('region', { name: '2 look-alike pins' });
      await expectVisible(group);
      await expectVisible(group.getByRole('radio', { name: 'Keep “Lighthouse, again”', checked: true }));
      await screenshot(page, 'duplicates-page');
      await expectAccessible(page, `Duplicates page (${label})`);

      // Keep the older one; merge; undo.
      await group.getByRole('radio', { name: 'Keep “Lighthouse”' }).check();
      await group.getByRole('button', { name: 'Merge 2 pins' }).click();
      await expectVisible(page.getByText('Merged 1 pin into “Lighthouse”'));
      await expectVisible(page.getByText('No duplicates among your pins.'));
      await page.getByRole('button', { name: 'Undo' }).click();
      await expectVisible(page.getByRole('region', { name: '2 look-alike pins' }));

      // The same picture again on the New Pin page.
      await page.goto('/pins/new');
      await page.getByLabel('Image file').setInputFiles({ name: 'lighthouse.jpg', mimeType: 'image/jpeg', buffer: reader.bytes });
      // The newest of the two is the one named: saved today, on no board.
      const warning = page.getByText(/^You saved this on [A-Z][a-z]+ [0-9]{1,2}, [0-9]{4}$/);
      await expectVisible(warning);
      await expectVisible(page.getByRole('link', { name: 'Open it' }));
      await screenshot(page, 'duplicates-warning');
      await expectAccessible(page, `New Pin warning (${label})`);
      await page.getByRole('button', { name: 'Save Pin' }).click();
      await expectVisible(page.getByRole('button', { name: 'Save anyway' }));
      await page.getByRole('button', { name: 'Save anyway' }).click();
      await expectPath(page, '/pins');
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
