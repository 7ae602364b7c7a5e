import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../contract/limits.ts';
import { importableUrl, pinTitle, sourceUrlOf } from './pin-text.ts';

describe('what a saved image’s pin says', () => {
  it('takes its title from the alt text, else the page title, else the host; one line, within the limit', () => {
    expect(pinTitle('  A kite\n over   the hill ', 'Kites', 'https://example.com/k')).toBe('A kite over the hill');
    expect(pinTitle('', 'Kites — Example', 'https://example.com/k')).toBe('Kites — Example');
    expect(pinTitle(' ', ' ', 'https://www.example.com:8443/k')).toBe('www.example.com:8443');
    const long = pinTitle('x'.repeat(500), '', 'https://example.com');
    expect(long).toHaveLength(LIMITS.title);
    expect(long.endsWith('…')).toBe(true);
  });

  it('keeps the page as the source without its fragment, http(s) only, within 2,048 characters', () => {
    expect(sourceUrlOf('https://example.com/a?b=1#photo-3')).toBe('https://example.com/a?b=1');
    expect(sourceUrlOf('file:///home/me/page.html')).toBeNull();
    expect(sourceUrlOf('chrome://newtab/')).toBeNull();
    expect(sourceUrlOf('not a url')).toBeNull();
    expect(sourceUrlOf(`https://example.com/path?q=${'a'.repeat(3000)}`)).toBe('https://example.com/path');
    expect(sourceUrlOf(`https://example.com/${'p'.repeat(3000)}`)).toBe('https://example.com');
  });

  it('lets the server import only http(s) addresses within its limit', () => {
    expect(importableUrl('https://cdn.example.com/a.jpg')).toBe(true);
    expect(importableUrl('data:image/png;base64,AAAA')).toBe(false);
    expect(importableUrl('blob:https://example.com/1')).toBe(false);
    expect(importableUrl(`https://example.com/${'a'.repeat(LIMITS.imageUrl)}`)).toBe(false);
  });
});
