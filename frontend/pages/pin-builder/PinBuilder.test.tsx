// The pin builder (docs/tokens-and-capture.md): the page's pictures to choose from (GET
// /api/pages/images), a board, and after Save "Saved to {board}" — which closes the bookmarklet's
// window by itself.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { PageImages } from '../../../contract/pages.ts';
import { AUTO_CLOSE_MS } from './SavedScreen.tsx';
import { alice, errorBody, makeBoard, makePin, pagedReply, renderApp, type Call, type Handler } from '../../test-support/render.tsx';

const PAGE = 'https://blog.example/barns/red';
const MEDIA = 'https://cdn.example/barn.jpg';
const kitchen = makeBoard(11, [], alice, 'Kitchen'); // private

const found: PageImages = {
  url: PAGE,
  title: 'Red barns',
  images: [
    { url: MEDIA, width: 800, height: 600, alt: 'The barn' },
    { url: 'https://cdn.example/side.jpg', width: 640, height: 480, alt: 'Side view' },
    { url: 'javascript:alert(1)' },
    { url: 'https://cdn.example/door.jpg' },
  ],
};

function link(extra: Record<string, string> = {}): string {
  return `/pin-builder?${new URLSearchParams({ url: PAGE, media: MEDIA, description: 'A red barn', ...extra })}`;
}

function server(pictures: Handler = { body: found }): Record<string, Handler> {
  return {
    'GET /api/pages/images': pictures,
    'GET /api/boards/': pagedReply('boards', [kitchen]),
    'POST /api/pins/': (call: Call) => {
      const body = call.body as { title: string; imageUrl: string; boardId?: number };
      return { status: 201, body: makePin(7, alice, { title: body.title, image_url: body.imageUrl, visibility: body.boardId ? 'private' : 'public' }) };
    },
  };
}

const pictures = () => screen.queryByRole('group', { name: /Pictures on this page/ });
const imageUrl = () => screen.getByLabelText<HTMLInputElement>('Image URL');

describe('the pin builder', () => {
  it("offers the page's pictures, the link's own first and chosen; another choice becomes the image URL", async () => {
    const { ui, sent } = renderApp(link(), { user: alice, handlers: server() });
    const group = await screen.findByRole('group', { name: 'Pictures on this page (3)' });
    expect(sent('GET', '/api/pages/images')[0]?.query.get('url')).toBe(PAGE);
    const radios = within(group).getAllByRole<HTMLInputElement>('radio');
    // Each address once, `javascript:` dropped.
    expect(radios.map((radio) => radio.getAttribute('aria-label'))).toEqual(['The barn, 800 by 600', 'Side view, 640 by 480', 'Picture 3']);
    expect(radios.map((radio) => radio.checked)).toEqual([true, false, false]);
    await ui.click(radios[1] as HTMLInputElement);
    expect(imageUrl().value).toBe('https://cdn.example/side.jpg');
    expect(within(group).getByRole<HTMLInputElement>('radio', { name: 'Side view, 640 by 480' }).checked).toBe(true);
    // A typed address is chosen over any of them.
    await ui.clear(imageUrl());
    await ui.type(imageUrl(), 'https://elsewhere.example/x.png');
    expect(
      within(group)
        .getAllByRole<HTMLInputElement>('radio')
        .some((radio) => radio.checked),
    ).toBe(false);
  });

  it('says it is looking while the page is read, with the link’s picture already there', async () => {
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    renderApp(link(), { user: alice, handlers: server(async () => (await held, { body: found })) });
    expect(await screen.findByText('Looking for more pictures on the page…')).toBeTruthy();
    const group = pictures() as HTMLElement;
    expect(group.getAttribute('aria-busy')).toBe('true');
    expect(within(group).getByRole<HTMLInputElement>('radio', { name: 'Picture 1' }).checked).toBe(true);
    answer();
    await screen.findByRole('group', { name: 'Pictures on this page (3)' });
    expect(screen.queryByText('Looking for more pictures on the page…')).toBeNull();
  });

  it('when the page cannot be read, the form works with the link’s picture alone and says nothing alarming', async () => {
    const { ui, sent } = renderApp(link(), { user: alice, handlers: server({ status: 422, body: errorBody('This page could not be reached.') }) });
    await screen.findByRole('heading', { name: 'Create a New Pin' });
    await waitFor(() => expect(sent('GET', '/api/pages/images')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByText('Looking for more pictures on the page…')).toBeNull());
    expect(pictures()).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(imageUrl().value).toBe(MEDIA);
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    expect(await screen.findByRole('heading', { name: 'Saved' })).toBeTruthy();
    expect(sent('POST', '/api/pins/')[0]?.body).toEqual({ title: 'A red barn', imageUrl: MEDIA, description: 'A red barn', sourceUrl: PAGE });
  });

  it('without a picture in the link, the page’s best one is chosen', async () => {
    renderApp(link({ media: '' }), { user: alice, handlers: server() });
    await screen.findByRole('group', { name: 'Pictures on this page (3)' });
    await waitFor(() => expect(imageUrl().value).toBe(MEDIA));
  });

  it('saves into the chosen board, says "Saved to {board}" and closes the bookmarklet’s window by itself', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    const { ui, sent, router } = renderApp(link({ popup: '1' }), { user: alice, handlers: server() });
    const group = await screen.findByRole('group', { name: 'Pictures on this page (3)' });
    await ui.click(within(group).getByRole('radio', { name: 'Side view, 640 by 480' }));
    const select = screen.getByLabelText<HTMLSelectElement>('Board');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(2));
    await ui.selectOptions(select, 'Kitchen');
    expect(screen.getByText(/Only you and the boards' members can see this pin/)).toBeTruthy();
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));

    const heading = await screen.findByRole('heading', { name: 'Saved to Kitchen' });
    expect(document.activeElement).toBe(heading);
    expect(sent('POST', '/api/pins/')[0]?.body).toEqual({
      title: 'A red barn',
      imageUrl: 'https://cdn.example/side.jpg',
      description: 'A red barn',
      sourceUrl: PAGE,
      boardId: 11,
    });
    const seeIt = screen.getByRole('link', { name: 'See it' });
    expect([seeIt.getAttribute('href'), seeIt.getAttribute('target')]).toEqual(['/pins/7', '_blank']);
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/pin-builder'); // never into the rest of the app
    expect(close).not.toHaveBeenCalled();
    await waitFor(() => expect(close).toHaveBeenCalledTimes(1), { timeout: AUTO_CLOSE_MS + 2_000 });
    // jsdom keeps the window open, as a browser does for a window no script opened.
    expect(await screen.findByText('You can close this window now.')).toBeTruthy();
  });

  it('"Keep it open" stops the window from closing; Close closes it', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    const { ui } = renderApp(link({ popup: '1' }), { user: alice, handlers: server() });
    await screen.findByRole('group', { name: 'Pictures on this page (3)' });
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await screen.findByRole('heading', { name: 'Saved' });
    await ui.click(screen.getByRole('button', { name: 'Keep it open' }));
    expect(screen.getByText('This window stays open.')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, AUTO_CLOSE_MS + 300));
    expect(close).not.toHaveBeenCalled();
    await ui.click(screen.getByRole('button', { name: 'Close' }));
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('opened as a plain link (no popup), the end stays: See it and Your pins, nothing closes', async () => {
    const close = vi.spyOn(window, 'close').mockImplementation(() => undefined);
    const { ui } = renderApp(link(), { user: alice, handlers: server() });
    await screen.findByRole('group', { name: 'Pictures on this page (3)' });
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await screen.findByRole('heading', { name: 'Saved' });
    expect(screen.getByRole('link', { name: 'See it' }).getAttribute('target')).toBeNull();
    expect(screen.getByRole('link', { name: 'Your pins' }).getAttribute('href')).toBe('/pins');
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, AUTO_CLOSE_MS + 300));
    expect(close).not.toHaveBeenCalled();
  });
});
