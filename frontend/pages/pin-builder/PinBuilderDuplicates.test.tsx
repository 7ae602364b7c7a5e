// The pin builder warns before saving a picture the reader saved already, as the New Pin form does
// for an upload (docs/duplicates.md): the link's picture (another site's, or a shared picture
// uploaded first) is checked by its address with GET /api/images/duplicates, and the pin is made
// only after "Save anyway"; "Open it" goes to the pin saved before.
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DuplicatePin } from '../../../contract/duplicates.ts';
import { alice, makePin, renderApp, type Call, type Handler } from '../../test-support/render.tsx';

const PAGE = 'https://blog.example/barns/red';
const MEDIA = 'https://cdn.example/barn.jpg';
// Noon UTC: the same day in every time zone the tests run in.
const saved = makePin(4, alice, { title: 'Red barn', created_at: '2026-03-03T12:00:00.000Z' });

function server(duplicates: (url: string) => DuplicatePin[]): Record<string, Handler> {
  return {
    'GET /api/pages/images': { body: { url: PAGE, title: 'Red barns', images: [{ url: MEDIA }, { url: 'https://cdn.example/side.jpg' }] } },
    'GET /api/images/duplicates': (call: Call) => ({ body: { duplicates: duplicates(call.query.get('url') ?? ''), checked: true } }),
    'POST /api/pins/': (call: Call) => {
      const body = call.body as { title: string; imageUrl: string };
      return { status: 201, body: makePin(7, alice, { title: body.title, image_url: body.imageUrl }) };
    },
    'GET /api/pins/4': { body: saved },
  };
}

const link = (media = MEDIA) => `/pin-builder?${new URLSearchParams({ url: PAGE, media, description: 'A red barn' })}`;
/** The check waits for typing to pause (400 ms) first: on a loaded machine that takes a while. */
const SHOWS = { timeout: 10_000 };
const seenBarn = (url: string) => (url === MEDIA ? [{ pin: saved, boards: [{ id: 2, name: 'Farms' }] }] : []);

describe('the pin builder: a picture saved already', () => {
  it("warns for the link's picture, saves only after Save anyway", async () => {
    const { ui, sent } = renderApp(link(), { user: alice, handlers: server(seenBarn) });
    expect(await screen.findByText('You saved this on March 3, 2026 to Farms', {}, SHOWS)).toBeTruthy();
    expect(sent('GET', '/api/images/duplicates')[0]?.query.get('url')).toBe(MEDIA);

    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Save anyway' })), SHOWS);
    expect(sent('POST', '/api/pins/')).toHaveLength(0);

    await ui.click(screen.getByRole('button', { name: 'Save anyway' }));
    expect(await screen.findByRole('heading', { name: 'Saved' }, SHOWS)).toBeTruthy();
    expect(sent('POST', '/api/pins/')[0]?.body).toMatchObject({ imageUrl: MEDIA });
  });

  it('another picture of the page has no warning; Open it goes to the pin saved before', async () => {
    const { ui, router } = renderApp(link(), { user: alice, handlers: server(seenBarn) });
    await screen.findByText('You saved this on March 3, 2026 to Farms', {}, SHOWS);
    await ui.clear(screen.getByLabelText('Image URL'));
    await ui.type(screen.getByLabelText('Image URL'), 'https://cdn.example/side.jpg');
    await waitFor(() => expect(screen.queryByText(/You saved this on/)).toBeNull(), SHOWS);
    await ui.clear(screen.getByLabelText('Image URL'));
    await ui.type(screen.getByLabelText('Image URL'), MEDIA);
    await ui.click(await screen.findByRole('link', { name: 'Open it' }, SHOWS));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins/4'));
  });

  it('a shared picture, uploaded first, is checked by its own address', async () => {
    const uploaded = '/media/ab/' + 'ab'.repeat(32) + '.jpg';
    const { ui, sent } = renderApp(link(uploaded), { user: alice, handlers: server((url) => (url === uploaded ? [{ pin: saved, boards: [] }] : [])) });
    expect(await screen.findByText('You saved this on March 3, 2026', {}, SHOWS)).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    expect(sent('POST', '/api/pins/')).toHaveLength(0);
  });

  it('a check that fails warns of nothing: the pin is saved', async () => {
    const handlers = { ...server(() => []), 'GET /api/images/duplicates': { status: 503, body: { message: 'Busy', errors: ['Busy'], fields: {} } } };
    const { ui, sent } = renderApp(link(), { user: alice, handlers });
    await screen.findByLabelText('Image URL');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    expect(await screen.findByRole('heading', { name: 'Saved' }, SHOWS)).toBeTruthy();
    expect(sent('POST', '/api/pins/')).toHaveLength(1);
  });
});
