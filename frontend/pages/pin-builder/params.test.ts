import { describe, expect, test } from 'vitest';
import { builderPrefill } from './params.ts';

const read = (params: Record<string, string>) => builderPrefill(new URLSearchParams(params), 'pins.example');

describe('the pin builder link', () => {
  test('fills the form from url, media and description', () => {
    expect(read({ url: 'https://www.Blog.example/post#top', media: 'https://cdn.example/a.jpg', description: 'A barn\nat dawn' })).toEqual({
      title: 'A barn',
      imageUrl: 'https://cdn.example/a.jpg',
      description: 'A barn\nat dawn',
      sourceUrl: 'https://www.blog.example/post',
    });
  });

  test("without a description the title is the page's host (no www.), else empty", () => {
    expect(read({ url: 'https://www.example.com/x', media: 'https://cdn.example/a.jpg' }).title).toBe('example.com');
    expect(read({ media: 'https://cdn.example/a.jpg' }).title).toBe('');
  });

  test('a long first line becomes a title of at most 100 characters, cut at a word', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
    const { title, description } = read({ description: words });
    expect(title.length).toBeLessThanOrEqual(100);
    expect(title.endsWith('…')).toBe(true);
    expect(words.startsWith(title.slice(0, -1))).toBe(true);
    expect(title.at(-2)).not.toBe(' ');
    expect(description).toBe(words);
  });

  test('unsafe or unusable values are dropped', () => {
    for (const media of ['javascript:alert(1)', 'data:image/png;base64,AAAA', '/api/auth/logout', 'vbscript:x', `https://cdn.example/${'a'.repeat(2100)}`]) {
      expect(read({ media }).imageUrl, media.slice(0, 30)).toBe('');
    }
    for (const url of ['javascript:alert(1)', 'data:text/html,x', '/relative', 'https://user:pw@example.com/']) {
      expect(read({ url }).sourceUrl, url).toBeNull();
    }
    // This site's own images are fine, on its path or its host.
    expect(read({ media: '/media/ab/x.webp' }).imageUrl).toBe('/media/ab/x.webp');
  });

  test('control characters are removed from the description, which is cut to 2,000 characters', () => {
    expect(read({ description: 'a\u0000b\u0007c\r\nd' }).description).toBe('abc\nd');
    expect(read({ description: 'x'.repeat(3000) }).description).toHaveLength(2000);
  });
});

describe('a share to the installed app', () => {
  test('takes its title, its text as the description, and its url as the page', () => {
    expect(read({ title: 'Red barns', text: 'Look at this one', url: 'https://blog.example/barns' })).toEqual({
      title: 'Red barns',
      imageUrl: '',
      description: 'Look at this one',
      sourceUrl: 'https://blog.example/barns',
    });
  });

  test('without a url, the first web address in the text is the page, and leaves the description', () => {
    const prefill = read({ text: 'Red barns https://blog.example/barns?id=4 and more https://other.example/' });
    expect(prefill.sourceUrl).toBe('https://blog.example/barns?id=4');
    expect(prefill.description).toBe('Red barns and more https://other.example/');
    expect(prefill.title).toBe('Red barns and more https://other.example/');
  });

  test('a text that is only an address gives no description, and the title is the host', () => {
    expect(read({ text: 'https://www.blog.example/barns' })).toMatchObject({ description: '', title: 'blog.example', sourceUrl: 'https://www.blog.example/barns' });
  });
});
