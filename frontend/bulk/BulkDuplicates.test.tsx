// Bulk upload of pictures saved already (docs/duplicates.md): each such file stops before its pin
// with "Already saved" and the warning's words on its own row, with Open it and Save anyway (no
// dialog per file); the others are pinned. Each row takes an optional alt text, sent with its pin
// (or, typed after the pin was made, sent when the field is left).
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storedImage, testFile } from '../test-support/files.ts';
import { alice, makePin, renderApp, type Call, type Handler } from '../test-support/render.tsx';

// Noon UTC: the same day in every time zone the tests run in.
const saved = makePin(4, alice, { title: 'Harbour', created_at: '2026-03-03T12:00:00.000Z' });

function server(): Record<string, Handler> {
  let nextPin = 20;
  return {
    'GET /api/boards/': { body: { boards: [], nextCursor: null } },
    'POST /api/images/': (call: Call) => {
      const name = ((call.body as FormData).get('file') as File).name;
      const seen = name.startsWith('harbour');
      return { status: 201, body: { image: storedImage(name.startsWith('harbour') ? 'a1a1a1' : 'b2b2b2'), duplicates: seen ? [{ pin: saved, boards: [{ id: 2, name: 'Seaside' }] }] : [] } };
    },
    'POST /api/pins/': (call: Call) => {
      const body = call.body as { title: string; imageUrl: string; altText?: string };
      return { status: 201, body: makePin(nextPin++, alice, { title: body.title, image_url: body.imageUrl, alt_text: body.altText ?? null }) };
    },
    'PUT /api/pins/21': (call: Call) => ({ body: makePin(21, alice, { alt_text: (call.body as { altText: string }).altText }) }),
    'GET /api/pins/4': { body: saved },
  };
}

/** Uploads go a few at a time: on a loaded machine a row takes a while to get there. */
const SHOWS = { timeout: 10_000 };
const row = (name: string) => screen.getByText(name, { selector: '.bulk__name' }).closest('li') as HTMLElement;

describe('bulk upload: pictures saved already, alt text', () => {
  it('a duplicate waits on its row with the warning; Save anyway pins it from the same upload', async () => {
    document.cookie = 'XSRF-TOKEN=token-1; path=/';
    const { ui, sent } = renderApp('/pins/new', { user: alice, handlers: server() });
    await ui.upload(await screen.findByLabelText('Choose images'), [testFile('harbour.png', 'image/png'), testFile('meadow.png', 'image/png')]);

    await waitFor(() => expect(row('meadow.png').dataset.phase).toBe('done'), SHOWS);
    await waitFor(() => expect(row('harbour.png').dataset.phase).toBe('seen'), SHOWS);
    const harbour = within(row('harbour.png'));
    expect(harbour.getByText('Already saved')).toBeTruthy();
    expect(harbour.getByText('You saved this on March 3, 2026 to Seaside')).toBeTruthy();
    expect(harbour.getByRole('link', { name: 'Open it: harbour.png' }).getAttribute('href')).toBe('/pins/4');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText('1 of 2 pinned · 1 saved already')).toBeTruthy();
    // The batch is over: one toast says what it came to.
    expect(await screen.findByText('1 pin created, 1 saved already')).toBeTruthy();
    expect(sent('POST', '/api/pins/')).toHaveLength(1);

    await ui.click(harbour.getByRole('button', { name: 'Save anyway: harbour.png' }));
    await waitFor(() => expect(row('harbour.png').dataset.phase).toBe('done'), SHOWS);
    // The pin is made from the upload kept: the file is not sent again.
    expect(sent('POST', '/api/images/')).toHaveLength(2);
    const pins = sent('POST', '/api/pins/').map((call) => (call.body as { imageUrl: string }).imageUrl);
    expect(pins).toContain(storedImage('a1a1a1').url);
    expect(screen.getByText('2 of 2 pinned')).toBeTruthy();
  });

  it('alt text typed on a row goes with its pin; typed after, it is sent when the field is left', async () => {
    document.cookie = 'XSRF-TOKEN=token-1; path=/';
    const { ui, sent } = renderApp('/pins/new', { user: alice, handlers: server() });
    await ui.upload(await screen.findByLabelText('Choose images'), [testFile('harbour-boats.png', 'image/png')]);
    await waitFor(() => expect(row('harbour-boats.png').dataset.phase).toBe('seen'), SHOWS);
    const alt = screen.getByLabelText('Alt text for harbour-boats.png');
    expect(alt.getAttribute('maxlength')).toBe('500');
    await ui.type(alt, 'Boats in a harbour');
    await ui.click(screen.getByRole('button', { name: 'Save anyway: harbour-boats.png' }));
    await waitFor(() => expect(row('harbour-boats.png').dataset.phase).toBe('done'), SHOWS);
    expect(sent('POST', '/api/pins/')[0]?.body).toMatchObject({ altText: 'Boats in a harbour' });

    await ui.upload(screen.getByLabelText('Choose images'), [testFile('meadow.png', 'image/png')]);
    await waitFor(() => expect(row('meadow.png').dataset.phase).toBe('done'), SHOWS);
    expect(sent('POST', '/api/pins/')[1]?.body).not.toHaveProperty('altText');
    await ui.type(screen.getByLabelText('Alt text for meadow.png'), 'A green meadow');
    await ui.tab();
    await waitFor(() => expect(sent('PUT', '/api/pins/21')).toHaveLength(1), SHOWS);
    expect(sent('PUT', '/api/pins/21')[0]?.body).toMatchObject({ altText: 'A green meadow' });
  });
});
