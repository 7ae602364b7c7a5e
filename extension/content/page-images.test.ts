import { afterEach, describe, expect, it } from 'vitest';
import { bestSource, listImages } from './page-images.ts';

// jsdom loads no image: a picture's natural size (and, where given, the candidate the browser
// chose, `currentSrc`) is set here as the browser would have it.
function picture(src: string, natural: [number, number], attrs: Record<string, string> = {}, currentSrc?: string): HTMLImageElement {
  const img = document.createElement('img');
  img.src = src;
  for (const [name, value] of Object.entries(attrs)) img.setAttribute(name, value);
  Object.defineProperty(img, 'naturalWidth', { value: natural[0] });
  Object.defineProperty(img, 'naturalHeight', { value: natural[1] });
  if (currentSrc !== undefined) Object.defineProperty(img, 'currentSrc', { value: currentSrc });
  document.body.appendChild(img);
  return img;
}

afterEach(() => {
  document.body.replaceChildren();
});

describe('the page’s images for the popup', () => {
  it('lists each picture once, largest first, leaving out icons and pixels', () => {
    picture('https://cdn.example.com/small.jpg', [300, 200], { alt: 'Small' });
    picture('https://cdn.example.com/big.jpg', [1200, 800], { alt: ' Big ' });
    picture('https://cdn.example.com/icon.png', [32, 32]);
    picture('https://cdn.example.com/pixel.gif', [1, 1]);
    picture('https://cdn.example.com/big.jpg', [1200, 800]); // the same picture again
    picture('https://cdn.example.com/banner.jpg', [1000, 90]); // too thin
    const { images, page } = listImages();
    expect(images).toEqual([
      { src: 'https://cdn.example.com/big.jpg', alt: 'Big', width: 1200, height: 800 },
      { src: 'https://cdn.example.com/small.jpg', alt: 'Small', width: 300, height: 200 },
    ]);
    expect(page.url).toBe(window.location.href);
  });

  it('takes the widest srcset candidate of the picture’s own origin', () => {
    const img = picture('https://cdn.example.com/a-400.jpg', [400, 300], { srcset: 'https://cdn.example.com/a-400.jpg 400w, https://cdn.example.com/a-1600.jpg 1600w, a-800.jpg 800w' });
    expect(bestSource(img)).toBe('https://cdn.example.com/a-1600.jpg');
    const dense = picture('https://cdn.example.com/b.jpg', [400, 300], { srcset: 'https://cdn.example.com/b@2x.jpg 2x' });
    expect(bestSource(dense)).toBe('https://cdn.example.com/b.jpg');
  });

  it('saves what the browser shows: a wider candidate of another origin is never taken', () => {
    // The security review's page: a kitten shown, a cookie-protected intranet picture as its 4000w candidate.
    const kitten = picture(
      'https://kittens.example/kitten-400.jpg',
      [400, 300],
      {
        srcset: 'https://kittens.example/kitten-400.jpg 400w, http://intranet.corp.example/secret.jpg 4000w, https://intranet:8443/secret.jpg 3000w',
        alt: 'A kitten',
      },
      'https://kittens.example/kitten-400.jpg',
    );
    expect(bestSource(kitten)).toBe('https://kittens.example/kitten-400.jpg');
    expect(listImages().images.map((i) => i.src)).toEqual(['https://kittens.example/kitten-400.jpg']);
  });

  it('starts from the candidate the browser chose (currentSrc), not the src attribute', () => {
    const img = picture(
      'https://elsewhere.example/fallback.jpg',
      [800, 600],
      {
        srcset: 'https://cdn.example.com/c-800.jpg 800w, https://cdn.example.com/c-1600.jpg 1600w, https://elsewhere.example/huge.jpg 9000w',
      },
      'https://cdn.example.com/c-800.jpg',
    );
    // The same origin as what is shown: the wider one; the other origin's, never.
    expect(bestSource(img)).toBe('https://cdn.example.com/c-1600.jpg');
  });

  it('never treats two data: URLs as one origin', () => {
    const img = picture('data:image/gif;base64,R0lGODlhAQABAAAAACw=', [400, 300], { srcset: 'data:image/png;base64,iVBORw0KGgo= 4000w' }, 'data:image/gif;base64,R0lGODlhAQABAAAAACw=');
    expect(bestSource(img)).toBe('data:image/gif;base64,R0lGODlhAQABAAAAACw=');
  });
});
