// New Pin's "From a website" (docs/page-images.md): the page's pictures to pick from, the picked
// one saved as the pin's image with the page as its source; refusals in the server's words; on a
// touch screen the empty preview offers to choose a photo.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alice, errorBody, makePin, renderApp } from '../test-support/render.tsx';

const PAGE = 'https://travel.example/harbour';
const pictures = [
  { url: 'https://cdn.example/dawn.jpg', width: 900, height: 600, alt: 'The harbour at dawn' },
  { url: 'https://cdn.example/boats.jpg', width: 640, height: 480, alt: 'Boats' },
];

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('New Pin from a website', () => {
  it('finds the pictures of a page by its address (https:// added), and saves the picked one with the page as its source', async () => {
    const created = makePin(9, alice, { title: 'Harbour', image_url: pictures[1]?.url ?? '', source_url: PAGE });
    const { ui, sent, router } = renderApp('/pins/new', {
      user: alice,
      handlers: {
        'GET /api/pages/images': (call) => ({ body: { url: call.query.get('url'), title: 'Harbour', images: pictures } }),
        'POST /api/pins/': { status: 201, body: created },
        'GET /api/pins/': { body: { pins: [created], nextCursor: null } },
      },
    });
    const toggle = await screen.findByRole('button', { name: 'From a website' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await ui.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    // Enter in the address finds the pictures; it does not save the pin.
    await ui.type(screen.getByLabelText('Website address'), 'travel.example/harbour{Enter}');
    const group = await screen.findByRole('group', { name: 'Pictures on this page (2)' });
    expect(sent('GET', '/api/pages/images')[0]?.query.get('url')).toBe(PAGE);
    expect(sent('POST')).toHaveLength(0);
    await ui.click(within(group).getByRole('radio', { name: 'Boats, 640 by 480' }));
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Harbour');
    expect((screen.getByLabelText('Image URL') as HTMLInputElement).value).toBe('https://cdn.example/boats.jpg');
    expect(screen.getByText('travel.example').closest('p')?.textContent).toBe('Saving from travel.example');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(sent('POST', '/api/pins/')[0]?.body).toEqual({ title: 'Harbour', imageUrl: 'https://cdn.example/boats.jpg', description: '', sourceUrl: PAGE });
  });

  it('a picture replaced by a typed address is saved without the page as its source', async () => {
    const created = makePin(9, alice);
    const { ui, sent } = renderApp('/pins/new', {
      user: alice,
      handlers: {
        'GET /api/pages/images': { body: { url: PAGE, title: '', images: pictures } },
        'POST /api/pins/': { status: 201, body: created },
        'GET /api/pins/': { body: { pins: [created], nextCursor: null } },
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'From a website' }));
    await ui.type(screen.getByLabelText('Website address'), PAGE);
    await ui.click(screen.getByRole('button', { name: 'Find pictures' }));
    await ui.click(await screen.findByRole('radio', { name: 'The harbour at dawn, 900 by 600' }));
    await ui.type(screen.getByLabelText('Title'), 'Mine');
    await ui.clear(screen.getByLabelText('Image URL'));
    await ui.type(screen.getByLabelText('Image URL'), 'https://elsewhere.example/a.jpg');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await waitFor(() => expect(sent('POST', '/api/pins/')).toHaveLength(1));
    expect(sent('POST', '/api/pins/')[0]?.body).toEqual({ title: 'Mine', imageUrl: 'https://elsewhere.example/a.jpg', description: '' });
  });

  it("shows the server's words for an address it will not read, and for a page it could not reach", async () => {
    const refused = "We can't read pictures from that address.";
    const unreachable = 'That page could not be reached (not found).';
    const { ui } = renderApp('/pins/new', {
      user: alice,
      handlers: {
        'GET /api/pages/images': (call) =>
          call.query.get('url')?.includes('10.0.0.1') ? { status: 400, body: errorBody(refused, [refused], { url: refused }) } : { status: 422, body: errorBody(unreachable) },
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'From a website' }));
    const address = screen.getByLabelText('Website address');
    await ui.type(address, 'http://10.0.0.1/{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe(refused);
    expect(address.getAttribute('aria-invalid')).toBe('true');
    await ui.clear(address);
    await ui.type(address, 'https://gone.example/page{Enter}');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(unreachable));
  });

  it('shows a message when the page has no pictures', async () => {
    const { ui } = renderApp('/pins/new', { user: alice, handlers: { 'GET /api/pages/images': { body: { url: PAGE, title: '', images: [] } } } });
    await ui.click(await screen.findByRole('button', { name: 'From a website' }));
    await ui.type(screen.getByLabelText('Website address'), `${PAGE}{Enter}`);
    expect(await screen.findByText('No pictures found on that page.')).toBeTruthy();
  });

  it('on a touch screen offers to choose a photo rather than to drop or paste one', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(pointer: coarse)', addEventListener: () => undefined, removeEventListener: () => undefined }));
    renderApp('/pins/new', { user: alice });
    expect(await screen.findByRole('button', { name: 'Tap to choose a photo' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Choose a photo' })).toBeTruthy();
    expect(screen.queryByText(/drop an image/i)).toBeNull();
    expect(screen.queryByText(/paste one/i)).toBeNull();
  });
});
