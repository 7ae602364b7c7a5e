// A grid card's picture says what image-alt.ts says: the owner's alt text, else the recognised text,
// else the title (docs/product.md "Alt text").
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storedImage } from '../test-support/files.ts';
import { alice, makePin, renderApp } from '../test-support/render.tsx';

describe("grid cards: the picture's alt", () => {
  it('alt text, else recognised text, else title', async () => {
    const image = (key: string, text: string | null) => ({ ...storedImage(key), text });
    const pins = [
      makePin(1, alice, { title: 'Harbour', alt_text: 'Three red boats', image: image('aa11', 'FERRY') }),
      makePin(2, alice, { title: 'Quote', image: image('bb22', 'Stay hungry') }),
      makePin(3, alice, { title: 'Lake', image: image('cc33', null) }),
    ];
    renderApp('/', { handlers: { 'GET /api/pins/': { body: { pins, nextCursor: null } } } });
    // The image link is hidden from screen readers (the title link names the pin): its alt still
    // serves whoever reaches the picture itself (an image search, a reader's image description).
    const alt = async (id: number) =>
      (
        await waitFor(() => {
          const img = document.querySelector<HTMLImageElement>(`article[data-pin-id="${id}"] img`);
          if (!img) throw new Error(`no card for pin ${id} yet`);
          return img;
        })
      ).alt;
    expect(await alt(1)).toBe('Three red boats');
    expect(await alt(2)).toBe('Stay hungry');
    expect(await alt(3)).toBe('Lake');
  });
});
