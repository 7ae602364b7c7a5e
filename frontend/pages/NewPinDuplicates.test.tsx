// The New Pin page's warning before saving a picture the reader has saved already
// (docs/duplicates.md): an upload that answers `duplicates` shows "You saved this on {date} to
// {board}" above Save, with "Save anyway" and "Open it"; the pin is created only after "Save
// anyway". And the optional alt text is sent with the pin.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DuplicatePin } from '../../contract/duplicates.ts';
import { storedImage, testFile } from '../test-support/files.ts';
import { alice, makePin, renderApp, type Call, type Handler } from '../test-support/render.tsx';

const image = storedImage('d0d0d0', 800, 600);
// Noon UTC: the same day in every time zone the tests run in.
const saved = makePin(4, alice, { title: 'Harbour at dusk', created_at: '2026-03-03T12:00:00.000Z' });

function server(duplicates: DuplicatePin[]): Record<string, Handler> {
  return {
    'POST /api/images/': { status: 201, body: { image, duplicates } },
    'POST /api/pins/': (call: Call) => {
      const body = call.body as { title: string; imageUrl: string };
      return { status: 201, body: makePin(9, alice, { title: body.title, image_url: body.imageUrl }) };
    },
    'GET /api/pins/': { body: { pins: [], nextCursor: null } },
    'GET /api/pins/4': { body: saved },
  };
}

async function uploadOn(duplicates: DuplicatePin[]) {
  document.cookie = 'XSRF-TOKEN=token-1; path=/';
  const view = renderApp('/pins/new', { user: alice, handlers: server(duplicates) });
  await screen.findByRole('heading', { name: 'Create a New Pin' });
  await view.ui.upload(screen.getByLabelText('Image file'), testFile('harbour.png', 'image/png'));
  await screen.findByText('Image uploaded.');
  return view;
}

const save = () => screen.getByRole('button', { name: 'Save Pin' });

describe('New Pin page: a picture saved already', () => {
  it('says when and where it was saved, and saves only after "Save anyway"', async () => {
    const { ui, sent, router } = await uploadOn([
      {
        pin: saved,
        boards: [
          { id: 2, name: 'Seaside' },
          { id: 3, name: 'Later' },
        ],
      },
    ]);
    expect(screen.getByText('You saved this on March 3, 2026 to Seaside')).toBeTruthy();

    await ui.click(save());
    // Nothing is created: the warning's first action takes the focus.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save anyway' })));
    expect(sent('POST', '/api/pins/')).toHaveLength(0);

    await ui.click(screen.getByRole('button', { name: 'Save anyway' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    const [created] = sent('POST', '/api/pins/');
    expect((created?.body as { imageUrl: string }).imageUrl).toBe(image.url);
  });

  it('without a board it says only the date; "Open it" goes to the pin saved before', async () => {
    const { ui, router } = await uploadOn([{ pin: saved, boards: [] }]);
    expect(screen.getByText('You saved this on March 3, 2026')).toBeTruthy();
    await ui.click(screen.getByRole('link', { name: 'Open it' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins/4'));
  });

  it('a picture never saved shows no warning and saves at once, with its alt text', async () => {
    const { ui, sent, router } = await uploadOn([]);
    expect(screen.queryByText(/You saved this on/)).toBeNull();
    const alt = screen.getByLabelText('Alt text');
    expect(alt.getAttribute('maxlength')).toBe('500');
    expect(screen.getByText("Describe the picture for people who can't see it.")).toBeTruthy();
    await ui.type(alt, 'Boats moored in a harbour at dusk');
    await ui.click(save());
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    const [created] = sent('POST', '/api/pins/');
    expect(created?.body).toMatchObject({ altText: 'Boats moored in a harbour at dusk', imageUrl: image.url });
  });
});
