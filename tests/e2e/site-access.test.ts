// Site access in the system Chromium (docs/site-access.md): a members-only site shows a visitor the
// log-in page at / and at a pin's address (and the pin once signed in); an invite link signs a new
// member up on an invite-only site, whose Invite people screen makes, shows and revokes links; a
// closed site offers no Sign Up anywhere. Screenshots at phone and desktop widths.
import { describe, expect, it } from 'vitest';
import type { InviteCreated } from '../../contract/invites.ts';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient, signUpUser } from '../support/client.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { DESKTOP, PHONE, expectAccessible, expectPath, expectVisible, newAccount, screenshot } from './browser.ts';

describe('a members-only site', () => {
  const app = useBrowserServer({ env: { SITE_VISIBILITY: 'members' } });

  it('shows the log-in page at / and at a pin, then the pin once signed in', async () => {
    const { client, user, password } = await signUpUser(app.url);
    const pin = (await client.post<Pin>('/api/pins/', { title: 'Members only pin', imageUrl: 'https://example.com/a.png' })).body;
    const { page, errors, context } = await app.openTab(DESKTOP);
    await page.goto('/');
    await expectPath(page, '/login');
    await expectVisible(page.getByRole('heading', { name: 'Log In' }));
    await page.goto(`/pins/${pin.id}`);
    await expectPath(page, '/login');
    await expectVisible(page.getByRole('heading', { name: 'Log In' }));
    expect(await page.getByText('Members only pin').count()).toBe(0);
    // No search box for a visitor; Sign Up still offered (sign-ups are open here).
    expect(await page.getByRole('searchbox').count()).toBe(0);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    await expectPath(page, `/pins/${pin.id}`);
    await expectVisible(page.getByRole('heading', { name: 'Members only pin' }));
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('an invite-only site', () => {
  const app = useBrowserServer({ env: { SIGNUPS: 'invite' }, seed: { pins: 2 } });

  it('the Invite people screen makes a link, and the link signs a new member up', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const { page, errors, context } = await app.openTab(viewport);
      await page.goto('/login');
      // No Sign Up link without an invite.
      expect(await page.getByRole('link', { name: /sign up/i }).count()).toBe(0);
      await page.getByRole('button', { name: 'Log in as Demo User' }).click();
      await expectPath(page, '/');
      await page.getByRole('button', { name: 'Profile menu' }).click();
      await page.getByRole('link', { name: 'Invite people' }).click();
      await expectPath(page, '/invites');
      await page.getByLabel('People it can sign up').fill('3');
      await page.getByRole('button', { name: 'Create invite link' }).click();
      const address = await expectVisible(page.getByRole('textbox', { name: /Invite link, 3 of 3 sign-ups left/ }));
      const url = await address.inputValue();
      expect(url).toMatch(/\/signup\?invite=[A-Za-z0-9_-]{22}$/);
      await expectAccessible(page, 'invites');
      console.log('screenshot', await screenshot(page, 'site-access-invites'));

      const guest = await app.openTab(viewport);
      await guest.page.goto(new URL(url).pathname + new URL(url).search);
      await expectVisible(guest.page.getByText('You have been invited to join.'));
      await expectAccessible(guest.page, 'signup with invite');
      console.log('screenshot', await screenshot(guest.page, 'site-access-signup-invite'));
      const account = newAccount('invited');
      await guest.page.getByLabel('Email').fill(account.email);
      await guest.page.getByLabel('Username').fill(account.username);
      await guest.page.getByLabel('Password', { exact: true }).fill(account.password);
      await guest.page.getByLabel('Confirm Password').fill(account.password);
      await guest.page.getByRole('button', { name: 'Sign Up' }).click();
      await expectPath(guest.page, '/');
      await expectVisible(guest.page.getByRole('link', { name: 'Favorites' }));
      expect(guest.errors).toEqual([]);
      await guest.context.close();

      await page.reload();
      await expectVisible(page.getByRole('textbox', { name: /Invite link, 2 of 3 sign-ups left/ }));
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('a used-up link says so on the sign-up page', async () => {
    const { client } = await signUpUserWithInvite();
    const { invite } = (await client.post<InviteCreated>('/api/invites', { uses: 1 })).body;
    const { page, context } = await app.openTab(DESKTOP);
    await page.goto('/signup');
    await expectVisible(page.getByText('Sign-ups on this site need an invite link.'));
    expect(await page.getByRole('button', { name: 'Sign Up' }).count()).toBe(0);
    await page.goto(invite.url);
    const account = newAccount('late');
    // Used up by someone else while this page was open.
    await fetchSignup(invite.code);
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Confirm Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expectVisible(page.getByText('This invite link cannot be used: it was used up, has expired or was revoked.'));
    await context.close();
  });

  /** A member made through the demo account's invite, by the API. */
  async function signUpUserWithInvite() {
    const demo = await demoClient();
    const { invite } = (await demo.post<InviteCreated>('/api/invites', {})).body;
    return { client: await fetchSignup(invite.code) };
  }
  async function demoClient() {
    const demo = new ApiClient(app.url);
    expect((await demo.post('/api/auth/demo')).status).toBe(200);
    return demo;
  }
  async function fetchSignup(code: string) {
    const client = new ApiClient(app.url);
    const account = newAccount('api');
    expect((await client.post('/api/auth/signup', { ...account, invite: code })).status).toBe(201);
    return client;
  }
});

describe('a closed site', () => {
  const app = useBrowserServer({ env: { SIGNUPS: 'closed' } });

  it('offers no Sign Up anywhere, and the sign-up page says so', async () => {
    const { page, errors, context } = await app.openTab(PHONE);
    await page.goto('/');
    await expectVisible(page.getByRole('link', { name: 'Log in', exact: true }));
    expect(await page.getByRole('link', { name: /sign up/i }).count()).toBe(0);
    await page.getByRole('button', { name: 'Profile menu' }).click();
    expect(await page.getByRole('link', { name: /sign up/i }).count()).toBe(0);
    await page.goto('/login');
    await expectVisible(page.getByRole('heading', { name: 'Log In' }));
    expect(await page.getByRole('link', { name: /sign up/i }).count()).toBe(0);
    await page.goto('/signup');
    await expectVisible(page.getByText('Sign-ups are closed on this site.'));
    expect(await page.getByLabel('Email').count()).toBe(0);
    console.log('screenshot', await screenshot(page, 'site-access-closed-signup'));
    expect(errors).toEqual([]);
    await context.close();
  });
});
