import { describe, expect, it } from 'vitest';
import { honestZip } from '../../tests/support/zip-fixtures.ts';
import { titleFromFileName } from '../bulk/bulk-queue.ts';
import { previewFile } from './file-preview.ts';
import { timeLeft } from './ImportStatus.tsx';

// What the Import / Export page says of a file before it is sent, read from the file's own bytes.

const fileOf = (bytes: Uint8Array | string, name: string) => new File([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], name);

describe('previewFile', () => {
  it('counts every link of a bookmark file as a pin, says how many carry their own image, and its boards', async () => {
    const html = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>Cats</H3>\n<DL><p>\n<DT><A HREF="https://a.example/" IMAGE="https://i.example/1.jpg">One</A>\n<DT><A HREF="https://b.example/">Two</A>\n<DT><A NAME="top"></A><A HREF="https://c.example/">Three</A>\n</DL><p>\n</DL><p>`;
    expect(await previewFile(fileOf(html, 'whatever.txt'))).toEqual({
      kind: 'netscape',
      items: 3,
      detail: '1 with an image, in 1 board — pictures of the other 2 will be fetched from their pages',
    });
  });

  it('a bookmark file without images: every link still a pin, its picture fetched from its page', async () => {
    const links = Array.from({ length: 12 }, (_, i) => `<DT><A HREF="https://site.example/${i}" ADD_DATE="1">Link ${i}</A>`);
    const html = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${['A', 'B', 'C'].map((board, b) => `<DT><H3>${board}</H3>\n<DL><p>\n${links.slice(b * 4, b * 4 + 4).join('\n')}\n</DL><p>`).join('\n')}\n</DL><p>`;
    expect(await previewFile(fileOf(html, 'bookmarks.html'))).toEqual({ kind: 'netscape', items: 12, detail: 'in 3 boards — their pictures will be fetched from their pages' });
  });

  it('a bookmark file whose links all carry an image, outside folders, says no more', async () => {
    const html = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><A HREF="https://a.example/" IMAGE="https://i.example/1.jpg">One</A>\n</DL><p>`;
    expect(await previewFile(fileOf(html, 'one.html'))).toEqual({ kind: 'netscape', items: 1, detail: '1 with an image' });
  });

  it('reads a ZIP’s central directory: a Pinboard export, or images in folders with pins.csv', async () => {
    const exported = await honestZip([
      { name: 'pinboard.json', data: '{}' },
      { name: 'images/a.jpg', data: 'x' },
      { name: 'images/b.png', data: 'y' },
    ]);
    expect(await previewFile(fileOf(exported, 'export.zip'))).toMatchObject({ kind: 'pinboard', items: 2 });
    const images = await honestZip([
      { name: 'Cats/a.jpg', data: 'x' },
      { name: 'Dogs/b.webp', data: 'y' },
      { name: 'c.png', data: 'z' },
      { name: '__MACOSX/Cats/._a.jpg', data: 'fork' },
      { name: 'pins.csv', data: 'file,title\n' },
    ]);
    expect(await previewFile(fileOf(images, 'pics.zip'))).toEqual({ kind: 'images', items: 3, detail: '2 folders as boards, with pins.csv' });
  });

  it('says plainly when a file is not one Pinboard imports', async () => {
    expect((await previewFile(fileOf('Dear diary…', 'bookmarks.html'))).kind).toBe('unknown');
    expect((await previewFile(fileOf(await honestZip([{ name: 'notes.txt', data: 'hi' }]), 'notes.zip'))).kind).toBe('unknown');
  });
});

describe('the words of the page', () => {
  it('titles a bulk upload’s pins from file names', () => {
    expect(titleFromFileName('IMG_2041-beach day.jpeg')).toBe('IMG 2041 beach day');
    expect(titleFromFileName('.png')).toBe('Untitled');
  });

  it('tells the time left from how fast items went lately', () => {
    expect(
      timeLeft(
        [
          { at: 0, processed: 0 },
          { at: 10_000, processed: 100 },
        ],
        600,
      ),
    ).toBe('About 1 minute left');
    expect(
      timeLeft(
        [
          { at: 0, processed: 0 },
          { at: 10_000, processed: 10 },
        ],
        9_000,
      ),
    ).toBe('About 3 hours left');
    expect(
      timeLeft(
        [
          { at: 0, processed: 0 },
          { at: 1_000, processed: 10 },
        ],
        100,
      ),
    ).toBeNull();
  });
});
