import { describe, expect, it } from 'vitest';
import { imageAlt, RECOGNISED_TEXT_ALT_CHARS } from './image-alt.ts';

describe("a pin picture's alt", () => {
  const image = (text: string | null) => ({ text });

  it("is the owner's alt text first", () => {
    expect(imageAlt({ title: 'Harbour', alt_text: 'Three red boats at dusk', image: image('SALE 50%') })).toBe('Three red boats at dusk');
  });

  it('else the text recognised in the picture, on one line', () => {
    expect(imageAlt({ title: 'Quote', alt_text: null, image: image('Stay\n  hungry,\nstay foolish') })).toBe('Stay hungry, stay foolish');
    // A blank alt text says nothing.
    expect(imageAlt({ title: 'Quote', alt_text: '   ', image: image('Stay hungry') })).toBe('Stay hungry');
  });

  it('cuts a long recognised text at a word, with an ellipsis', () => {
    const text = Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ');
    const alt = imageAlt({ title: 'Recipe', image: image(text) });
    expect(alt.length).toBeLessThanOrEqual(RECOGNISED_TEXT_ALT_CHARS);
    expect(alt.endsWith('…')).toBe(true);
    expect(text.startsWith(alt.slice(0, -1))).toBe(true);
    expect(text.charAt(alt.length - 1)).toBe(' '); // ends at a word's end
  });

  it('else the title (no image, no text, or a list that does not carry the alt text)', () => {
    expect(imageAlt({ title: 'Lake', alt_text: null, image: null })).toBe('Lake');
    expect(imageAlt({ title: 'Lake', image: image(null) })).toBe('Lake');
    expect(imageAlt({ title: 'Lake', image: image('  ') })).toBe('Lake');
  });
});
