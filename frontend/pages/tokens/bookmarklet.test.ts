import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOKMARKLET_WINDOW, bookmarkletHref } from './bookmarklet.ts';

// The bookmarklet runs in someone else's page: it reads it and opens our builder, adding nothing.

const ORIGIN = 'https://pins.example';

/** Runs the bookmark as a click would, in this (jsdom) page; returns what it asked window.open for. */
function click(): { url: URL; features: string } {
  const open = vi.spyOn(window, 'open').mockReturnValue(null);
  const href = bookmarkletHref(ORIGIN);
  new Function(decodeURIComponent(href.slice('javascript:'.length)))();
  expect(open).toHaveBeenCalledTimes(1);
  const [url, target, features] = open.mock.calls[0] as [string, string, string];
  open.mockRestore();
  expect(target).toBe('_blank');
  return { url: new URL(url), features };
}

function image(src: string, width: number, height: number, alt = ''): void {
  const img = document.createElement('img');
  img.src = src;
  img.alt = alt;
  img.width = width;
  img.height = height;
  document.body.append(img);
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.unstubAllGlobals();
});

describe('the bookmarklet', () => {
  it("opens the builder with the page, its largest http(s) picture and that picture's alt, marked as a popup", () => {
    document.title = 'Red Barn Weekly';
    image('https://cdn.example/pixel.gif', 1, 1);
    image('https://cdn.example/large.jpg', 640, 420, 'The big red barn');
    image('https://cdn.example/small.jpg', 120, 80, 'A small thing');
    image('data:image/png;base64,AAAA', 2000, 2000);
    const { url } = click();
    expect(url.origin + url.pathname).toBe(`${ORIGIN}/pin-builder`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      url: window.location.href,
      media: 'https://cdn.example/large.jpg',
      description: 'The big red barn',
      popup: '1',
    });
  });

  it('opens a window wide enough for the site header, no larger than the screen, without an opener', () => {
    expect(BOOKMARKLET_WINDOW.width).toBeGreaterThanOrEqual(1000);
    vi.stubGlobal('screen', { availWidth: 2560, availHeight: 1400 });
    expect(click().features).toBe(`noopener,width=${BOOKMARKLET_WINDOW.width},height=${BOOKMARKLET_WINDOW.height}`);
    vi.stubGlobal('screen', { availWidth: 900, availHeight: 700 });
    expect(click().features).toBe('noopener,width=900,height=700');
  });

  it('without a picture, names the page by its title; it adds nothing to the page', () => {
    document.title = 'Just words';
    const before = document.documentElement.outerHTML;
    const { url } = click();
    expect(url.searchParams.get('media')).toBeNull();
    expect(url.searchParams.get('description')).toBe('Just words');
    expect(document.documentElement.outerHTML).toBe(before);
    // No element, script or request is made in the page, and nothing newer than the engines it runs on.
    expect(bookmarkletHref(ORIGIN)).not.toMatch(/createElement|appendChild|\.src\s*=|fetch\(|XMLHttpRequest|import\(|\?\.|\?\?/);
  });
});
