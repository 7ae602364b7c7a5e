import { afterEach, describe, expect, it } from 'vitest';
import { bestSource, listImages } from './page-images.ts';

// jsdom loads no image: a picture's natural size is set here as the browser would have it.
function picture(src: string, natural: [number, number], attrs: Record<string, string> = {}): HTMLImageElement {
  const img = document.createElement('img');
  img.src = src;
  for (const [name, value] of Object.entries(attrs)) img.setAttribute(name, value);
  Object.defineProperty(img, 'naturalWidth', { value: natural[0] });
  Object.defineProperty(img, 'naturalHeight', { value: natural[1] });
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

  it('takes the widest srcset candidate', () => {
    const img = picture('https://cdn.example.com/a-400.jpg', [400, 300], { srcset: 'https://cdn.example.com/a-400.jpg 400w, https://cdn.example.com/a-1600.jpg 1600w, a-800.jpg 800w' });
    expect(bestSource(img)).toBe('https://cdn.example.com/a-1600.jpg');
    const dense = picture('https://cdn.example.com/b.jpg', [400, 300], { srcset: 'https://cdn.example.com/b@2x.jpg 2x' });
    expect(bestSource(dense)).toBe('https://cdn.example.com/b.jpg');
  });
});
