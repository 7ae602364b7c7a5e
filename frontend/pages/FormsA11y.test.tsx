import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { alice, makePin, renderApp } from '../test-support/render.tsx';
import { SAVE_ANYWAY } from './NewPinPage.tsx';

describe('forms', () => {
  it('a refused field is marked invalid, described by its message and focused; fixing it clears the message', async () => {
    const { ui } = renderApp('/boards/create', { user: alice });
    const name = await screen.findByLabelText('Board Name');
    await ui.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText('Board name cannot be empty.')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    const described = (name.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described).toContain('Board name cannot be empty.');
    await waitFor(() => expect(document.activeElement).toBe(name));
    await ui.type(name, 'Trips');
    expect(screen.queryByText('Board name cannot be empty.')).toBeNull();
    expect(name.getAttribute('aria-invalid')).toBeNull();
  });

  it('New Pin marks the failing fields, described by the list of problems', async () => {
    const { ui } = renderApp('/pins/new', { user: alice });
    await ui.click(await screen.findByRole('button', { name: 'Save Pin' }));
    const title = screen.getByLabelText('Title');
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Image URL').getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(title.getAttribute('aria-describedby') ?? '')?.textContent).toContain('Title is required.');
    await ui.type(title, 'A title');
    expect(title.getAttribute('aria-invalid')).toBeNull();
    expect(within(screen.getByRole('alert')).queryByText('Title is required.')).toBeNull();
  });

  it('New Pin asks before saving an image URL whose preview failed: Cancel returns to the URL, Save anyway saves', async () => {
    const created = makePin(7, alice, { title: 'Broken', image_url: 'https://example.com/missing.jpg' });
    const { ui, sent, router } = renderApp('/pins/new', {
      user: alice,
      handlers: { 'POST /api/pins/': { status: 201, body: created }, 'GET /api/pins/': { body: { pins: [created] } } },
    });
    await ui.type(await screen.findByLabelText('Title'), 'Broken');
    await ui.type(screen.getByLabelText('Image URL'), 'https://example.com/missing.jpg');
    fireEvent.error(await screen.findByAltText('Preview of the image'));
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(SAVE_ANYWAY)).toBeTruthy();
    await ui.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(sent('POST')).toHaveLength(0);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Image URL')));
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await ui.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Save anyway' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(sent('POST', '/api/pins/')).toHaveLength(1);
  });
});
