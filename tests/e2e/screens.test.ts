// Every page (and its open menus, modals and error states) at 1280×800 and 390×844: a full-page
// screenshot into artifacts/screenshots/ and an axe-core check with no serious or critical findings.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DemoImage } from '../../db/demo-catalog.ts';
import { DEMO_PINS, PHOTO_URL, seededImages } from '../support/demo.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, PHONE, commitDelete, createPin, demoLogin, expectPath, expectVisible, screenshot, seriousA11yViolations } from './browser.ts';

const app = useBrowserServer({ seed: { pins: DEMO_PINS } });

type Shot = { name: string; open: (page: Page) => Promise<void>; overlay?: boolean };

async function firstPinId(page: Page, title: string): Promise<number> {
  await page.goto('/');
  const href = await (await expectVisible(page.getByRole('link', { name: title, exact: true }))).first().getAttribute('href');
  return Number(href?.split('/').pop());
}

async function boardId(page: Page, name: string): Promise<number> {
  await page.goto('/boards');
  const href = await (await expectVisible(page.getByRole('link', { name: new RegExp(name) }))).first().getAttribute('href');
  return Number(href?.split('/').pop());
}

async function run(viewport: { width: number; height: number }) {
  const anon = await app.openTab(viewport);
  const user = await app.openTab(viewport);
  await demoLogin(user.page);
  // The newest demo pin is the demo user's; the next one is Maya's, with the demo user's comment.
  const newest = await firstPinId(user.page, (seededImages[0] as DemoImage).title);
  const mayas = await firstPinId(user.page, (seededImages[1] as DemoImage).title);
  const photoWalk = await boardId(user.page, 'Photo walk');
  // A pin whose image is missing shows the fallback.
  const broken = await createPin(user.page, {
    title: `Broken image ${viewport.width}`,
    imageUrl: '/seed-images/does-not-exist.jpg',
    description: 'The image URL of this pin does not load.',
    broken: true,
  });

  const anonShots: Shot[] = [
    {
      name: 'home-anonymous',
      open: async (p) => {
        await p.goto('/');
        await expectVisible(p.locator('article'));
      },
    },
    {
      name: 'login',
      open: async (p) => {
        await p.goto('/login');
        await expectVisible(p.getByRole('heading', { name: 'Log In' }));
      },
    },
    {
      name: 'login-errors',
      open: async (p) => {
        await p.goto('/login');
        await p.getByLabel('Email').fill('demo@pinboard.test');
        await p.getByLabel('Password').fill('wrong-password');
        await p.getByRole('button', { name: 'Log In', exact: true }).click();
        await expectVisible(p.getByText('The provided credentials were invalid.'));
      },
    },
    {
      name: 'signup',
      open: async (p) => {
        await p.goto('/signup');
        await expectVisible(p.getByRole('heading', { name: 'Sign Up' }));
      },
    },
    {
      name: 'signup-errors',
      open: async (p) => {
        await p.goto('/signup');
        await p.getByLabel('Password', { exact: true }).fill('one-password');
        await p.getByLabel('Confirm Password').fill('other-password');
        await p.getByRole('button', { name: 'Sign Up' }).click();
        await expectVisible(p.getByText('Confirm Password field must be the same as the Password field'));
      },
    },
    {
      name: 'pin-detail-anonymous',
      open: async (p) => {
        await p.goto(`/pins/${newest}`);
        await expectVisible(p.getByText('Saving this for my next trip.'));
      },
    },
    {
      name: 'profile-menu-anonymous',
      overlay: true,
      open: async (p) => {
        await p.goto('/');
        await p.getByRole('button', { name: 'Profile menu' }).click();
        await expectVisible(p.getByRole('link', { name: 'Sign Up', exact: true }));
      },
    },
    {
      name: 'not-found',
      open: async (p) => {
        await p.goto('/nothing/here');
        await expectVisible(p.getByRole('heading', { name: 'Page not found' }));
      },
    },
    {
      name: 'user-pins-anonymous',
      open: async (p) => {
        await p.goto('/users/demo');
        await expectVisible(p.locator('article'));
      },
    },
    // Addresses that name nothing: a not-found page each, and no uncaught error (checked below).
    {
      name: 'user-not-found',
      open: async (p) => {
        await p.goto('/users/nobody-here');
        await expectVisible(p.getByRole('heading', { name: /not found/i }));
      },
    },
    {
      name: 'pin-bad-id',
      open: async (p) => {
        await p.goto('/pins/abc');
        await expectVisible(p.getByRole('heading', { name: 'Pin not found' }));
      },
    },
    {
      name: 'pin-unknown-id',
      open: async (p) => {
        await p.goto('/pins/999999999');
        await expectVisible(p.getByRole('heading', { name: 'Pin not found' }));
      },
    },
  ];

  const userShots: Shot[] = [
    {
      name: 'home',
      open: async (p) => {
        await p.goto('/');
        await expectVisible(p.locator('article'));
        await p.locator('article').first().hover();
      },
    },
    {
      name: 'profile-menu',
      overlay: true,
      open: async (p) => {
        await p.goto('/');
        await p.getByRole('button', { name: 'Profile menu' }).click();
        await expectVisible(p.getByText('Hello, Demo'));
      },
    },
    {
      name: 'favorites',
      open: async (p) => {
        await p.goto('/favorites');
        await expectVisible(p.getByTitle('Remove from favorites'));
      },
    },
    {
      name: 'boards',
      open: async (p) => {
        await p.goto('/boards');
        await expectVisible(p.getByText('Photo walk'));
      },
    },
    {
      name: 'boards-create',
      open: async (p) => {
        await p.goto('/boards/create');
        await expectVisible(p.getByLabel('Board Name'));
      },
    },
    {
      name: 'boards-create-error',
      open: async (p) => {
        await p.goto('/boards/create');
        await p.getByRole('button', { name: 'Create' }).click();
        await expectVisible(p.getByText('Board name cannot be empty.'));
      },
    },
    {
      name: 'board-detail',
      open: async (p) => {
        await p.goto(`/boards/${photoWalk}`);
        await expectVisible(p.getByRole('heading', { name: 'Photo walk' }));
      },
    },
    {
      name: 'board-rename',
      open: async (p) => {
        await p.goto(`/boards/${photoWalk}`);
        await p.getByRole('button', { name: 'Rename Board' }).click();
        await expectVisible(p.getByRole('button', { name: 'OK' }));
      },
    },
    {
      name: 'board-delete-modal',
      overlay: true,
      open: async (p) => {
        await p.goto(`/boards/${photoWalk}`);
        await p.getByRole('button', { name: 'Delete Board' }).click();
        await expectVisible(p.getByRole('alertdialog'));
      },
    },
    {
      name: 'manage-pins',
      open: async (p) => {
        await p.goto(`/boards/${photoWalk}/manage-pins`);
        await expectVisible(p.getByRole('heading', { name: 'Manage Photo walk Pins' }));
      },
    },
    {
      name: 'your-pins',
      open: async (p) => {
        await p.goto('/pins');
        await expectVisible(p.getByRole('heading', { name: 'Your Awesome Pins!' }));
        await expectVisible(p.locator('article'));
      },
    },
    {
      name: 'new-pin',
      open: async (p) => {
        await p.goto('/pins/new');
        await expectVisible(p.getByRole('heading', { name: 'Create a New Pin' }));
      },
    },
    {
      name: 'new-pin-errors',
      open: async (p) => {
        await p.goto('/pins/new');
        await p.getByRole('button', { name: 'Save Pin' }).click();
        await expectVisible(p.getByText('Image URL is required.'));
      },
    },
    {
      name: 'new-pin-preview',
      open: async (p) => {
        await p.goto('/pins/new');
        await p.getByLabel('Title').fill('Ocean mood');
        await p.getByLabel('Image URL').fill(PHOTO_URL);
        await expectVisible(p.getByAltText('Preview of the image'));
      },
    },
    {
      name: 'pin-detail-owner',
      open: async (p) => {
        await p.goto(`/pins/${newest}`);
        await expectVisible(p.getByRole('link', { name: 'Edit This Pin' }));
        await expectVisible(p.getByText('Saving this for my next trip.'));
      },
    },
    {
      name: 'pin-detail-other',
      open: async (p) => {
        await p.goto(`/pins/${mayas}`);
        await expectVisible(p.getByText('I could stare at this all day.'));
      },
    },
    {
      name: 'pin-add-to-board',
      overlay: true,
      open: async (p) => {
        await p.goto(`/pins/${mayas}`);
        await p.getByRole('button', { name: 'Add To Board' }).click();
        await expectVisible(p.getByRole('button', { name: '+ Create New Board' }));
        await p.getByRole('button', { name: '+ Create New Board' }).click();
        await expectVisible(p.getByLabel('New board name'));
      },
    },
    {
      name: 'pin-comment-modal',
      overlay: true,
      open: async (p) => {
        // A pin the demo user has not commented on (on Maya's, "Edit Your Comment" replaces Add Comment).
        await p.goto(`/pins/${broken}`);
        await p.getByRole('button', { name: 'Add Comment' }).click();
        await p.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
        await expectVisible(p.getByText('Text is required'));
      },
    },
    {
      name: 'pin-broken-image',
      open: async (p) => {
        await p.goto(`/pins/${broken}`);
        await expectVisible(p.getByText('Image unavailable'));
      },
    },
    {
      name: 'pin-edit',
      open: async (p) => {
        await p.goto(`/pins/${newest}/edit`);
        await expectVisible(p.getByRole('button', { name: 'Save Changes' }));
      },
    },
    {
      name: 'board-unknown-id',
      open: async (p) => {
        await p.goto('/boards/999999999');
        await expectVisible(p.getByRole('heading', { name: 'Board not found' }));
      },
    },
    {
      name: 'board-bad-id-manage',
      open: async (p) => {
        await p.goto('/boards/abc/manage-pins');
        await expectVisible(p.getByRole('heading', { name: 'Board not found' }));
      },
    },
    {
      name: 'pin-edit-bad-id',
      open: async (p) => {
        await p.goto('/pins/abc/edit');
        await expectVisible(p.getByRole('heading', { name: /not found/i }));
      },
    },
    {
      name: 'pin-delete-modal',
      overlay: true,
      open: async (p) => {
        await p.goto(`/pins/${newest}`);
        await p.getByRole('button', { name: 'Delete This Pin' }).click();
        await expectVisible(p.getByRole('alertdialog'));
      },
    },
  ];

  const findings: string[] = [];
  for (const [tab, shots] of [
    [anon, anonShots],
    [user, userShots],
  ] as const) {
    for (const shot of shots) {
      await shot.open(tab.page);
      await screenshot(tab.page, shot.name, { overlay: shot.overlay ?? false });
      for (const v of await seriousA11yViolations(tab.page)) {
        findings.push(`${shot.name}: ${v.id} (${v.impact}) ${v.help} ${v.nodes.map((n) => JSON.stringify(n.target)).join(' ')}`);
      }
      await tab.page.keyboard.press('Escape');
    }
  }
  // Leave the data as it was for the other viewport.
  await user.page.goto(`/pins/${broken}`);
  await user.page.getByRole('button', { name: 'Delete This Pin' }).click();
  await user.page.getByRole('alertdialog').getByRole('button', { name: 'Yes' }).click();
  await expectPath(user.page, '/pins');
  await commitDelete(user.page, 'Pin deleted');
  expect(findings).toEqual([]);
  expect([...anon.errors, ...user.errors]).toEqual([]);
  await anon.context.close();
  await user.context.close();
}

describe('screens', () => {
  it('desktop 1280×800: screenshots and axe on every page', () => run(DESKTOP));
  it('phone 390×844: screenshots and axe on every page', () => run(PHONE));
});
