// The Edit Pin page's alt text (docs/product.md "Alt text"): an optional field with its hint, filled
// with what the pin has, sent as `altText` only when it changed (emptied: null, which removes it).
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../contract/limits.ts';
import { alice, makePin, renderApp } from '../test-support/render.tsx';
import { ALT_TEXT_HINT } from './EditPinPage.tsx';

function editPage(altText: string | null) {
  const pin = makePin(7, alice, { title: 'Harbour', alt_text: altText });
  return renderApp('/pins/7/edit', {
    user: alice,
    handlers: {
      'GET /api/pins/7': { body: pin },
      'PUT /api/pins/7': { body: pin },
      'GET /api/pins/': { body: { pins: [pin], nextCursor: null } },
    },
  });
}

describe('Edit Pin: alt text', () => {
  it('offers an optional "Alt text" with its hint and limit; a new one is saved as altText', async () => {
    const { ui, sent, router } = editPage(null);
    const field = await screen.findByLabelText('Alt text');
    expect(field.getAttribute('maxlength')).toBe(String(LIMITS.altText));
    expect(document.getElementById(field.getAttribute('aria-describedby') ?? '')?.textContent).toBe(ALT_TEXT_HINT);
    expect((field as HTMLTextAreaElement).value).toBe('');
    await ui.type(field, '  Three red boats  ');
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(sent('PUT', '/api/pins/7')[0]?.body).toEqual({ title: 'Harbour', description: 'About pin 7', altText: 'Three red boats' });
  });

  it('shows the alt text the pin has; emptied, it is sent as null; untouched, it is not sent', async () => {
    const first = editPage('Three red boats');
    const field = await screen.findByLabelText('Alt text');
    expect((field as HTMLTextAreaElement).value).toBe('Three red boats');
    await first.ui.clear(field);
    await first.ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/pins'));
    expect(first.sent('PUT', '/api/pins/7')[0]?.body).toEqual({ title: 'Harbour', description: 'About pin 7', altText: null });
  });

  it('an edit that leaves it alone does not send it', async () => {
    const { ui, sent, router } = editPage('Three red boats');
    await ui.type(await screen.findByLabelText('Title'), ' at dusk');
    await ui.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(sent('PUT', '/api/pins/7')[0]?.body).toEqual({ title: 'Harbour at dusk', description: 'About pin 7' });
  });
});
