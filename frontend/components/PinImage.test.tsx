// Stored images on every screen (docs/images.md): a card reserves its box from the image's size, shows
// the thumbhash placeholder until the thumbnail has loaded, and offers the thumbnails by srcset with
// the grid's column width as `sizes`; a pin without a stored image keeps its hotlinked image_url.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { PinImage as StoredImage } from '../../contract/images.ts';
import { upsertPin } from '../state/pins.ts';
import { storedImage } from '../test-support/files.ts';
import { alice, bob, makeBoard, makePin, renderApp } from '../test-support/render.tsx';
import { setTestLayout } from '../test-support/layout.ts';
import { DEFAULT_ASPECT } from './grid/aspect.ts';
import { columnWidth, gridColumns } from './grid/columns.ts';

function pinImage(key: string, width = 1200, height = 800): StoredImage {
  const { url: _url, ...image } = storedImage(key, width, height);
  return image;
}

/** Width / height of an element's aspect-ratio style ("1.5" or "1.5 / 1"). */
function ratio(element: HTMLElement | null | undefined): number {
  const [width = 'NaN', height = '1'] = (element?.style.aspectRatio ?? '').split('/');
  return Number(width) / Number(height);
}

/** The image box of the card of pin `id` (once the grid has placed it). */
async function cardImage(id: number) {
  // Cells being measured are hidden, then placed (and rendered again): take the placed one.
  const card = await waitFor(() => {
    const found = Array.from(document.querySelectorAll<HTMLElement>(`article[data-pin-id="${id}"]`)).find((article) => {
      const cell = article.closest<HTMLElement>('[role="listitem"]');
      return !cell || cell.style.visibility !== 'hidden';
    });
    if (!found) throw new Error(`no placed card for pin ${id}`);
    return found;
  });
  const box = card.querySelector<HTMLElement>('.pin-image');
  if (!box) throw new Error('no image box');
  return { card, box, img: box.querySelector('img'), placeholder: box.querySelector<HTMLElement>('.pin-image__placeholder') };
}

describe('stored images in the grids', () => {
  it('reserves the box from width/height and shows the placeholder until the thumbnail loads, then swaps without changing the box', async () => {
    const image = pinImage('aa11', 1200, 800);
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(1, alice, { image })], nextCursor: null } } } });
    const { box, img, placeholder } = await cardImage(1);
    expect(ratio(box)).toBeCloseTo(1200 / 800);
    expect(placeholder?.style.backgroundImage).toMatch(/^url\("?data:image\/png;base64,/);
    expect(placeholder?.getAttribute('aria-hidden')).toBe('true');
    expect(box.classList.contains('pin-image--loading')).toBe(true);
    expect(box.classList.contains('pin-image--placeholder')).toBe(true);
    expect(img?.getAttribute('alt')).toBe('Pin 1');

    fireEvent.load(img!);
    await waitFor(() => expect(box.classList.contains('pin-image--loaded')).toBe(true));
    // The placeholder fades out (CSS) under the thumbnail; the box is the same.
    expect(ratio(box)).toBeCloseTo(1200 / 800);
    expect(box.querySelector('img')).toBe(img);
  });

  it("offers the 236 and 736 px thumbnails by srcset, with the grid's column width as sizes", async () => {
    const image = pinImage('bb22');
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(1, alice, { image })], nextCursor: null } } } });
    const { img } = await cardImage(1);
    expect(img?.getAttribute('src')).toBe(image.thumbnails['236']);
    expect(img?.getAttribute('srcset')).toBe(`${image.thumbnails['236']} 236w, ${image.thumbnails['736']} 736w`);
    expect(img?.getAttribute('sizes')).toBe(`${columnWidth(992, gridColumns(992))}px`);
    expect(img?.getAttribute('loading')).toBe('lazy');
  });

  it('on a phone the sizes name its narrow column (the 236 px file fits it)', async () => {
    setTestLayout({ width: 358 }); // 390 px less the page's padding
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(1, alice, { image: pinImage('cc33') })], nextCursor: null } } } });
    const { img } = await cardImage(1);
    const width = columnWidth(358, gridColumns(358));
    expect(width).toBeLessThanOrEqual(236);
    expect(img?.getAttribute('sizes')).toBe(`${width}px`);
  });

  it('describes each thumbnail by its real width: a small image has one size only', async () => {
    const middling = pinImage('dd44', 500, 500);
    const small = pinImage('ee55', 200, 100);
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(1, alice, { image: middling }), makePin(2, alice, { image: small })], nextCursor: null } } } });
    expect((await cardImage(1)).img?.getAttribute('srcset')).toBe(`${middling.thumbnails['236']} 236w, ${middling.thumbnails['736']} 500w`);
    expect((await cardImage(2)).img?.getAttribute('srcset')).toBe(`${small.thumbnails['236']} 200w`);
  });

  it('keeps very tall images within the bounds of a card', async () => {
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(1, alice, { image: pinImage('ff66', 400, 4000) })], nextCursor: null } } } });
    expect(ratio((await cardImage(1)).box)).toBeCloseTo(1 / 2.5);
  });

  it('a pin without a stored image keeps its image_url in the default box, without srcset or placeholder', async () => {
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(2)], nextCursor: null } } } });
    const { box, img, placeholder } = await cardImage(2);
    expect(img?.getAttribute('src')).toBe('/seed-images/2.svg');
    expect(img?.hasAttribute('srcset')).toBe(false);
    expect(img?.hasAttribute('sizes')).toBe(false);
    expect(placeholder).toBeNull();
    expect(ratio(box)).toBeCloseTo(DEFAULT_ASPECT);
  });

  it('a broken thumbnail shows the fallback in the same box', async () => {
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(1, alice, { image: pinImage('ab12', 1000, 1000) })], nextCursor: null } } } });
    const { img } = await cardImage(1);
    fireEvent.error(img!);
    // (The card's image link is hidden from assistive technology: the title link names the pin.)
    const fallback = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('article[data-pin-id="1"] .pin-image--fallback');
      if (!found) throw new Error('no fallback yet');
      return found;
    });
    expect(fallback.getAttribute('role')).toBe('img');
    expect(fallback.getAttribute('aria-label')).toBe('Pin 1');
    expect(fallback.textContent).toContain('Image unavailable');
    expect(ratio(fallback)).toBeCloseTo(1);
  });

  it('a placeholder that cannot be decoded leaves the plain loading box', async () => {
    const image = { ...pinImage('ac13'), placeholder: '!!not base64!!' };
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [makePin(1, alice, { image })], nextCursor: null } } } });
    const { box, placeholder, img } = await cardImage(1);
    expect(placeholder).toBeNull();
    expect(box.classList.contains('pin-image--loading')).toBe(true);
    expect(img?.getAttribute('src')).toBe(image.thumbnails['236']);
  });

  it('a pin whose image was imported meanwhile swaps to the stored thumbnail live', async () => {
    const pin = makePin(1);
    const { store } = renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins: [pin], nextCursor: null } } } });
    expect((await cardImage(1)).img?.getAttribute('src')).toBe('/seed-images/1.svg');
    const image = pinImage('ad14', 900, 1200);
    act(() => upsertPin(store, { ...pin, image, updated_at: '2026-02-01T00:00:00.000Z' }));
    await waitFor(async () => expect((await cardImage(1)).img?.getAttribute('src')).toBe(image.thumbnails['236']));
    const { box, placeholder } = await cardImage(1);
    expect(ratio(box)).toBeCloseTo(900 / 1200);
    expect(placeholder).not.toBeNull();
  });

  it('favorites, board and manage-pins cards use the stored image too', async () => {
    const image = pinImage('ae15', 800, 1000);
    const pin = makePin(1, alice, { image });
    const favorite = { id: 3, pin_id: 1, title: 'Pin 1', image_url: pin.image_url, image, likes_count: 2 };
    const board = makeBoard(4, [pin]);
    const handlers = {
      'GET /api/favorites/': { body: { pins: [favorite], nextCursor: null } },
      'GET /api/boards/4': { body: { ...board, nextCursor: null } },
    };
    for (const path of ['/favorites', '/boards/4', '/boards/4/manage-pins']) {
      const view = renderApp(path, { user: alice, handlers });
      const { box, img, placeholder } = await cardImage(1);
      expect(img?.getAttribute('srcset'), path).toContain(`${image.thumbnails['236']} 236w`);
      expect(img?.getAttribute('sizes'), path).toMatch(/^[0-9]+px$/);
      expect(ratio(box), path).toBeCloseTo(800 / 1000);
      expect(placeholder, path).not.toBeNull();
      view.unmount();
    }
  });

  it("a board's cover shows its stored image's thumbnail over the placeholder", async () => {
    const image = pinImage('af16');
    const board = makeBoard(4, [makePin(1, bob, { image })], bob);
    renderApp('/boards', { user: bob, handlers: { 'GET /api/boards/': { body: { boards: [board], nextCursor: null } } } });
    const list = await screen.findByRole('list', { name: 'Your boards' });
    const img = await waitFor(() => {
      const found = within(list).getAllByRole('listitem')[0]?.querySelector('img');
      if (!found) throw new Error('no cover yet');
      return found;
    });
    expect(img.getAttribute('srcset')).toContain(image.thumbnails['236']);
    expect(img.closest('.pin-image')?.querySelector('.pin-image__placeholder')).not.toBeNull();
  });
});

describe('stored images on the pin and edit pages', () => {
  it('the pin page shows the 736 px thumbnail in a reserved box, and links the original', async () => {
    const image = pinImage('ba21', 1600, 900);
    const pin = makePin(5, alice, { image_url: '/media/ba/ba21.jpg', image });
    renderApp('/pins/5', { handlers: { 'GET /api/pins/5': { body: pin } } });
    await screen.findByRole('heading', { name: 'Pin 5' });
    const img = document.querySelector('.pin-detail__media img');
    expect(img?.getAttribute('src')).toBe(image.thumbnails['736']);
    expect(img?.hasAttribute('srcset')).toBe(false);
    expect(img?.getAttribute('loading')).toBe('eager');
    expect(ratio(img?.closest<HTMLElement>('.pin-image'))).toBeCloseTo(1600 / 900);
    const original = screen.getByRole('link', { name: 'Open original image' });
    expect(original.getAttribute('href')).toBe('/media/ba/ba21.jpg');
    expect(original.getAttribute('rel')).toContain('noopener');
  });

  it('a pin without a stored image shows its image_url and no original link', async () => {
    renderApp('/pins/5', { handlers: { 'GET /api/pins/5': { body: makePin(5) } } });
    await screen.findByRole('heading', { name: 'Pin 5' });
    expect(document.querySelector('.pin-detail__media img')?.getAttribute('src')).toBe('/seed-images/5.svg');
    expect(screen.queryByRole('link', { name: 'Open original image' })).toBeNull();
  });

  it('the edit page previews the stored image', async () => {
    const image = pinImage('bb22', 600, 900);
    renderApp('/pins/5/edit', { user: alice, handlers: { 'GET /api/pins/5': { body: makePin(5, alice, { image }) } } });
    await screen.findByLabelText('Title');
    const img = document.querySelector('.form-card__preview img');
    expect(img?.getAttribute('src')).toBe(image.thumbnails['736']);
    expect(ratio(img?.closest<HTMLElement>('.pin-image'))).toBeCloseTo(600 / 900);
  });
});
