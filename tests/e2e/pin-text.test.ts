// What a picture says, in the system Chromium (docs/product.md "Alt text"): on a pin's page the
// picture's alt is its owner's alt text, and the text recognised in it (set here with SQL, as
// processing stores it) waits under a closed "Text in this image" disclosure that opens in place.
// Screenshots with it open at phone and desktop size.
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import { DEMO_IMAGES_DIR, demoImages } from '../../db/demo-catalog.ts';
import { signUpUser } from '../support/client.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, expectAccessible, expectVisible, PHONE, screenshot } from './browser.ts';

const app = useBrowserServer();

const ALT = 'A hand-lettered card on a cork board';
const TEXT = 'Be kind.\nWork hard.\nStay humble, and water the plants on Sundays.';
let pin: Pin;

beforeAll(async () => {
  const { client } = await signUpUser(app.url, 'lettering');
  const photo = demoImages().find((image) => image.kind === 'photo');
  if (!photo) throw new Error('the demo catalog has no photo');
  const bytes = await sharp(path.join(DEMO_IMAGES_DIR, photo.file)).resize(900, 1200, { fit: 'cover' }).jpeg({ quality: 85 }).toBuffer();
  const uploaded = await client.upload<{ image: { url: string } }>('/api/images/', { bytes, name: 'card.jpg', type: 'image/jpeg' });
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  const made = await client.post<Pin>('/api/pins/', { title: 'Words to live by', imageUrl: uploaded.body.image.url, description: 'Found at the café.', altText: ALT });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  pin = made.body;
  const db = app.server.database.db;
  const { image_sha256: sha256 } = await db.selectFrom('pins').select('image_sha256').where('id', '=', pin.id).executeTakeFirstOrThrow();
  expect(sha256).not.toBeNull();
  await db.updateTable('images').set({ text: TEXT, text_read_at: new Date() }).where('sha256', '=', sha256!).execute();
});

describe('text in a picture', () => {
  for (const [name, viewport, touch] of [
    ['phone', PHONE, true],
    ['desktop', DESKTOP, false],
  ] as const) {
    it(`on a ${name}: the alt text is the picture's alt; the recognised text opens under "Text in this image"`, async () => {
      const { page, errors } = await app.openTab(viewport, { touch });
      await page.goto(`/pins/${pin.id}`);
      await expectVisible(page.getByRole('heading', { name: 'Words to live by' }));
      await expectVisible(page.getByRole('img', { name: ALT }));
      const summary = page.getByText('Text in this image', { exact: true });
      await expectVisible(summary);
      const body = page.locator('.pin-text__body');
      expect(await body.isVisible()).toBe(false);
      await summary.click();
      await expectVisible(body);
      expect(await body.innerText()).toBe(TEXT);
      // Inside the screen's width (a phone's too).
      const box = await page.locator('.pin-text').boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
      await expectAccessible(page, `the pin page with its text open (${name})`);
      await page.locator('.pin-text').scrollIntoViewIfNeeded();
      console.log('screenshot', await screenshot(page, 'pin-text-open', { overlay: true }));
      console.log('screenshot', await screenshot(page, 'pin-text-open-page'));
      expect(errors).toEqual([]);
    });
  }
});
