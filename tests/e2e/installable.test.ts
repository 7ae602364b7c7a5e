// The installable app in the system Chromium (docs/installable-app.md): the manifest and service
// worker make the site installable and the worker controls the page; offline, a reload opens the
// app and a pin seen before shows its offline copy; a picture shared to the app lands in the pin
// builder uploaded and saves as a pin with that picture, a shared page offers its pictures, and a
// share the worker did not take still opens the builder; a route whose code cannot be loaded
// (offline, or gone after a new version) never shows "Unexpected Application Error!".
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pin, PinList } from '../../contract/pins.ts';
import { DEMO_PINS } from '../support/demo.ts';
import { type FixtureSites, startFixtureSites } from '../support/fixture-sites.ts';
import { jpeg } from '../support/image-fixtures.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { controlledByWorker, DESKTOP, expectGone, expectPath, expectVisible, newAccount, PAGE_WAIT_MS, PHONE, screenshot, signUp } from './browser.ts';

let sites: FixtureSites;
beforeAll(async () => {
  sites = await startFixtureSites();
}, 60_000);
afterAll(async () => {
  await sites?.close();
});
// The fixture site stands for a public one: loopback addresses are otherwise never read.
const app = useBrowserServer(() => ({
  seed: { pins: DEMO_PINS },
  env: { FETCH_ALLOW_CIDRS: '127.0.0.1/32', FETCH_ALLOW_PORTS: `${sites.sitePort},${sites.imagesPort}` },
}));

const UNEXPECTED = 'Unexpected Application Error!';
/** A size no demo or fixture picture has: the saved pin's picture is the shared one. */
const SHARED_SIZE = { width: 637, height: 411 } as const;

/**
 * Shares to the app as an Android share sheet would: a multipart POST to the manifest's
 * share_target, sent by a form of the page (so the worker, when there is one, answers it).
 */
async function share(page: Page, fields: { title?: string; text?: string; url?: string }, file?: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as { share_target: { action: string } };
  await page.evaluate(
    ({ action, fields }) => {
      const form = document.createElement('form');
      Object.assign(form, { id: 'share-form', method: 'post', enctype: 'multipart/form-data', action });
      for (const [name, value] of Object.entries(fields)) {
        const input = Object.assign(document.createElement('input'), { type: 'hidden', name, value });
        form.append(input);
      }
      form.append(Object.assign(document.createElement('input'), { type: 'file', name: 'image', id: 'shared-image' }));
      document.body.append(form);
    },
    { action: manifest.share_target.action, fields },
  );
  if (file) await page.setInputFiles('#shared-image', file);
  await page.evaluate(() => document.querySelector<HTMLFormElement>('#share-form')?.submit());
}

describe('the installable app', () => {
  it('is installable, and its worker controls the page and has the build precached', async () => {
    // A profile on disk: Chromium never offers to install from an incognito context (a new context of a launched browser).
    const profile = mkdtempSync(path.join(tmpdir(), 'pinboard-installable-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      baseURL: app.url,
      viewport: PHONE,
      serviceWorkers: 'allow',
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await controlledByWorker(page);
    const manifestAnswer = await page.request.get('/manifest.webmanifest');
    expect(manifestAnswer.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await manifestAnswer.json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'Pinboard', short_name: 'Pinboard', start_url: '/', scope: '/', display: 'standalone' });
    expect((await page.request.get('/sw.js')).headers()['cache-control']).toBe('no-cache');
    const cdp = await context.newCDPSession(page);
    await expect.poll(async () => (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, { timeout: PAGE_WAIT_MS }).toEqual([]);
    // Every route's chunk is in the precache, the lazy ones included.
    const precached = await page.evaluate(async () => {
      const names = (await caches.keys()).filter((name) => name.startsWith('pinboard-precache-'));
      const urls = await Promise.all(names.map(async (name) => (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname)));
      return urls.flat();
    });
    expect(precached).toContain('/index.html');
    for (const chunk of ['LoginPage', 'PinDetailPage', 'PinBuilderPage'])
      expect(
        precached.some((url) => url.startsWith(`/assets/${chunk}-`)),
        chunk,
      ).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  });

  it('offline, a reload opens the app, and a pin seen before shows its offline copy', async () => {
    const { page, context, errors } = await app.openTab(PHONE, { serviceWorkers: true });
    await controlledByWorker(page);
    const { pins } = (await (await page.request.get('/api/pins/')).json()) as PinList;
    const pin = pins[0] as Pin;
    await page.goto(`/pins/${pin.id}`);
    await expectVisible(page.getByRole('heading', { name: pin.title }));

    await context.setOffline(true);
    await page.reload();
    await expectVisible(page.getByRole('heading', { name: pin.title }));
    await expectVisible(page.getByRole('navigation', { name: 'Main' }));
    const marked = await page.evaluate(async (id) => (await fetch(`/api/pins/${id}`)).headers.get('X-Pinboard-Offline-Copy'), pin.id);
    expect(marked).toBe('1');
    console.log('screenshot', await screenshot(page, 'installable-offline-pin'));
    // The home page's shell opens too, and a page not seen before opens from the precached code.
    await page.goto('/');
    await expectVisible(page.getByRole('navigation', { name: 'Main' }));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log in', exact: true }).click();
    await expectVisible(page.getByRole('heading', { name: 'Log In' }));
    await context.setOffline(false);
    // Offline, the live socket cannot connect and the home feed's page is asked for anew (its
    // shuffle is per visit): those failures are logged; nothing else may be.
    expect(errors.filter((error) => !error.includes('ERR_INTERNET_DISCONNECTED') && !error.includes('The server could not be reached.'))).toEqual([]);
    await context.close();
  });

  it('a shared picture lands in the pin builder uploaded, and saving makes a pin of that picture', async () => {
    const { page, context, errors } = await app.openTab(PHONE, { serviceWorkers: true, touch: true });
    await signUp(page, newAccount('sharer'));
    await controlledByWorker(page);
    const buffer = await jpeg(SHARED_SIZE.width, SHARED_SIZE.height);
    await share(page, { title: 'Harbour at dusk', text: 'Seen on the evening walk' }, { name: 'harbour.jpg', mimeType: 'image/jpeg', buffer });
    await expectPath(page, '/pin-builder');
    // Uploaded: the builder's address names the upload now, and the form has the picture.
    await page.waitForURL((url) => (url.searchParams.get('media') ?? '').startsWith('/media/'));
    await expectVisible(page.getByRole('img', { name: 'Preview of the image' }));
    expect(await page.getByLabel('Title').inputValue()).toBe('Harbour at dusk');
    expect(await page.getByLabel('Description (optional)').inputValue()).toBe('Seen on the evening walk');
    console.log('screenshot', await screenshot(page, 'installable-shared-picture'));
    await page.getByRole('button', { name: 'Save Pin' }).click();
    const saved = page.getByTestId('builder-saved');
    await expectVisible(saved.getByText('Harbour at dusk'));
    const pinPath = await saved.getByRole('link', { name: 'See it' }).getAttribute('href');
    const pin = (await (await page.request.get(`/api${pinPath}`)).json()) as Pin;
    expect(pin.image_url).toMatch(/^\/media\//);
    expect(pin.image).toMatchObject(SHARED_SIZE);
    // The worker's copy of the shared file is gone once it is uploaded.
    expect(await page.evaluate(async () => (await (await caches.open('pinboard-shared')).keys()).length)).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a shared page opens the builder on that page, offering its pictures', async () => {
    const { page, context, errors } = await app.openTab(DESKTOP, { serviceWorkers: true });
    await signUp(page, newAccount('linker'));
    await controlledByWorker(page);
    await share(page, { title: 'Twenty pictures', text: `Have a look ${sites.site}/twenty.html` });
    await expectPath(page, '/pin-builder');
    const pictures = await expectVisible(page.getByRole('group', { name: /Pictures on this page/ }));
    await expect.poll(() => pictures.getByRole('radio').count(), { timeout: PAGE_WAIT_MS }).toBeGreaterThan(5);
    expect(await page.getByLabel('Title').inputValue()).toBe('Twenty pictures');
    console.log('screenshot', await screenshot(page, 'installable-shared-page'));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a share no worker took opens the builder with its words, and says the picture did not arrive', async () => {
    const { page, context, errors } = await app.openTab(PHONE); // workers blocked: the server answers
    await signUp(page, newAccount('early'));
    await share(page, { title: 'Harbour at dusk' }, { name: 'harbour.jpg', mimeType: 'image/jpeg', buffer: await jpeg(SHARED_SIZE.width, SHARED_SIZE.height) });
    await expectPath(page, '/pin-builder');
    await expectVisible(page.getByText("The shared picture didn't arrive — choose it again."));
    expect(await page.getByLabel('Title').inputValue()).toBe('Harbour at dusk');
    console.log('screenshot', await screenshot(page, 'installable-share-lost'));
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a page whose code cannot be loaded', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`offline, says so in the layout and opens by itself back online (${viewport.width} px)`, async () => {
      const { page, context } = await app.openTab(viewport);
      await page.goto('/');
      const bar = page.getByRole('navigation', { name: 'Main' });
      await expectVisible(bar);
      await context.setOffline(true);
      await bar.getByRole('link', { name: 'Log in', exact: true }).click();
      await expectVisible(page.getByRole('heading', { name: "You're offline" }));
      await expectVisible(page.getByText("This page opens when you're back online."));
      await expectVisible(bar);
      expect(await page.getByText(UNEXPECTED).count()).toBe(0);
      console.log('screenshot', await screenshot(page, 'installable-chunk-offline'));
      await context.setOffline(false);
      await expectVisible(page.getByRole('heading', { name: 'Log In' }));
      await context.close();
    });
  }

  it('gone after a new version, reloads once, then offers Reload instead of looping', async () => {
    const { page, context } = await app.openTab(DESKTOP);
    let asked = 0;
    await context.route('**/assets/LoginPage-*.js', (route) => {
      asked += 1;
      return route.fulfill({ status: 404, body: 'gone' });
    });
    await page.goto('/login');
    await expectVisible(page.getByRole('heading', { name: 'Pinboard was updated' }));
    expect(await page.getByText(UNEXPECTED).count()).toBe(0);
    await expectVisible(page.getByRole('navigation', { name: 'Main' }));
    // One reload: the chunk was asked for twice, and no more.
    expect(asked).toBe(2);
    console.log('screenshot', await screenshot(page, 'installable-chunk-updated'));
    await context.unroute('**/assets/LoginPage-*.js');
    await page.getByRole('button', { name: 'Reload' }).click();
    await expectVisible(page.getByRole('heading', { name: 'Log In' }));
    await expectGone(page.getByRole('heading', { name: 'Pinboard was updated' }));
    await context.close();
  });
});
