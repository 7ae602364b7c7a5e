// Account settings and forgotten passwords in the browser (docs/accounts.md): a password change
// signs the other browser out, a mailed reset link sets a new password, and an account is deleted
// while another user watches its pin vanish.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DRAWING_URL } from '../support/demo.ts';
import { resetLinkIn, useSmtpInbox } from '../support/smtp-inbox.ts';
import { useBrowserServer } from '../support/use-browser-server.ts';
import { createPin, DESKTOP, expectAccessible, expectGone, expectPath, expectVisible, newAccount, PHONE, screenshot, signUp } from './browser.ts';

const inbox = useSmtpInbox();
const app = useBrowserServer(() => ({ seed: { pins: 2 }, env: { SMTP_URL: inbox.url } }));

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await expectPath(page, '/');
  await expectVisible(page.getByRole('link', { name: 'Favorites' }));
}

async function openSettings(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Profile menu' }).click();
  await page.getByRole('link', { name: 'Settings' }).click();
  await expectPath(page, '/settings');
  await expectVisible(page.getByRole('heading', { name: 'Where you are signed in' }));
}

describe('settings', () => {
  it('changes the password: the other browser is signed out at once, this one stays', async () => {
    const account = newAccount('settings');
    const laptop = await app.openTab();
    await signUp(laptop.page, account);
    const phone = await app.openTab(PHONE, { touch: true });
    await logIn(phone.page, account.email, account.password);

    await openSettings(laptop.page);
    const sessions = laptop.page.getByRole('region', { name: 'Where you are signed in' });
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
    await expectVisible(sessions.getByText('This device'));
    await expectAccessible(laptop.page, 'the settings page');
    await screenshot(laptop.page, 'settings');

    const password = laptop.page.getByRole('region', { name: 'Password' });
    await password.getByRole('button', { name: 'Change password' }).click();
    await expectVisible(password.getByText('Enter your current password.'));
    await password.getByLabel('Current password').fill('not my password');
    await password.getByLabel('New password', { exact: true }).fill('a brand new password');
    await password.getByLabel('Confirm new password').fill('a brand new password');
    await password.getByRole('button', { name: 'Change password' }).click();
    await expectVisible(password.getByText('That is not your current password.'));
    await password.getByLabel('Current password').fill(account.password);
    await password.getByRole('button', { name: 'Change password' }).click();
    await expectVisible(laptop.page.getByText('Password changed. You are signed out everywhere else.'));

    // The phone's socket heard session:ended: it is signed out without a reload.
    await expectGone(phone.page.getByRole('link', { name: 'Favorites' }));
    await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
    await expectVisible(laptop.page.getByText('You are signed in on this device only.'));

    // At once: its cookie of the ended session is dropped, and with it the anti-forgery token bound to it.
    await logIn(phone.page, account.email, 'a brand new password');
    await phone.page.goto('/settings');
    await expectVisible(phone.page.getByRole('heading', { name: 'Where you are signed in' }));
    await screenshot(phone.page, 'settings');
    expect(laptop.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
    await laptop.context.close();
    await phone.context.close();
  });

  it('resets a forgotten password through the mailed link, which works once', async () => {
    const account = newAccount('forgot');
    const first = await app.openTab();
    await signUp(first.page, account);
    await first.context.close();

    for (const viewport of [DESKTOP, PHONE]) {
      const tab = await app.openTab(viewport);
      await tab.page.goto('/login');
      await tab.page.getByRole('link', { name: 'Forgot password?' }).click();
      await expectPath(tab.page, '/forgot-password');
      await expectVisible(tab.page.getByRole('heading', { name: 'Forgot your password?' }));
      await screenshot(tab.page, 'forgot-password');
      if (viewport === PHONE) await tab.context.close();
      else {
        await tab.page.getByLabel('Email').fill(account.email);
        await tab.page.getByRole('button', { name: 'Send reset link' }).click();
        await expectVisible(tab.page.getByRole('heading', { name: 'Check your email' }));
        await screenshot(tab.page, 'forgot-password-sent');
        await tab.context.close();
      }
    }

    const link = resetLinkIn(await inbox.mailTo(account.email));
    for (const viewport of [PHONE, DESKTOP]) {
      const tab = await app.openTab(viewport);
      await tab.page.goto(link);
      await expectVisible(tab.page.getByRole('heading', { name: 'Choose a new password' }));
      await expectAccessible(tab.page, 'the reset page');
      await screenshot(tab.page, 'reset-password');
      if (viewport === PHONE) {
        await tab.context.close();
        continue;
      }
      await tab.page.getByLabel('New password', { exact: true }).fill('picked after forgetting');
      await tab.page.getByLabel('Confirm new password').fill('picked after forgetting');
      await tab.page.getByRole('button', { name: 'Set new password' }).click();
      await expectVisible(tab.page.getByRole('heading', { name: 'Password changed' }));
      await screenshot(tab.page, 'reset-password-done');
      await tab.page.getByRole('link', { name: 'Log In' }).last().click();
      await logIn(tab.page, account.email, 'picked after forgetting');

      // The link is spent.
      await tab.page.goto(link);
      await tab.page.getByLabel('New password', { exact: true }).fill('and once more please');
      await tab.page.getByLabel('Confirm new password').fill('and once more please');
      await tab.page.getByRole('button', { name: 'Set new password' }).click();
      await expectVisible(tab.page.getByText('This reset link has expired or was already used. Ask for a new one.'));
      await expectVisible(tab.page.getByRole('link', { name: 'Ask for a new link' }));
      expect(tab.errors).toEqual([]);
      await tab.context.close();
    }
  });

  it("deletes the account: another user's open grid drops its pin, and the browser is signed out", async () => {
    const account = newAccount('leaving');
    const tab = await app.openTab();
    await signUp(tab.page, account);
    const title = `Leaving pin ${Date.now()}`;
    await createPin(tab.page, { title, imageUrl: DRAWING_URL });

    const watcher = await app.openTab();
    await watcher.page.goto('/');
    await expectVisible(watcher.page.getByRole('link', { name: title, exact: true }));

    await tab.page.goto('/settings');
    const danger = tab.page.getByRole('region', { name: 'Delete my account' });
    await expectVisible(danger);
    await danger.getByLabel('Password').fill(account.password);
    await danger.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = tab.page.getByRole('alertdialog');
    await expectVisible(dialog.getByText('Everything you made on Pinboard will be deleted for good.'));
    await screenshot(tab.page, 'settings-delete-confirm', { overlay: true });
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expectPath(tab.page, '/');
    await expectVisible(tab.page.getByText('Your account was deleted.'));
    await expectGone(tab.page.getByRole('link', { name: 'Favorites' }));

    await expectGone(watcher.page.getByRole('link', { name: title, exact: true }));
    expect(tab.errors).toEqual([]);
    expect(watcher.errors).toEqual([]);
    await tab.context.close();
    await watcher.context.close();
  });
});
