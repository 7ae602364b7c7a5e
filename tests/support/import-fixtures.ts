import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

// A Pinback-style export (Pinterest boards as <H3>, pins as <A HREF IMAGE ORIGLINK ADD_DATE>) and
// the image host its IMAGE addresses point to: a local server, allowed for the test through
// FETCH_ALLOW_CIDRS/FETCH_ALLOW_PORTS. Every good address answers a distinct JPEG of at most
// 1200 px (a base picture whose pixels are made the item's own: pictureVariant), so no two items
// store the same original; some answer 404, some text that is not an image, and some items have
// no IMAGE at all.

export interface PinbackItem {
  board: string;
  title: string;
  href: string;
  image: string | null;
  origLink: string;
  /** The pin's tags: the #word of its title (its description) and its TAGS attribute's `Sea` (`c++` is no tag). */
  tags: string[];
  /** What the import must make of it. */
  expect: 'pin' | 'no picture on the page' | 'not found (404)' | 'not an image';
}

/**
 * Another picture from a base JPEG, for item `n`, without encoding one: the bits of `n` are added to
 * the first entries after the DC of its luminance quantization table (the lowest frequencies), so
 * its blocks decode to other pixels. Not a comment block or any other metadata: stored originals
 * lose those (docs/images.md), and items differing only there would be stored as one image.
 */
export function pictureVariant(jpegBytes: Buffer, n: number): Buffer {
  const out = Buffer.from(jpegBytes);
  for (let at = 2; at + 4 <= out.length && out[at] === 0xff && out[at + 1] !== 0xda; at += 2 + out.readUInt16BE(at + 2)) {
    if (out[at + 1] !== 0xdb) continue;
    // A DQT segment: tables of a precision/id byte and 64 entries (8-bit) or 128 bytes (16-bit).
    for (let table = at + 4; table < at + 2 + out.readUInt16BE(at + 2); table += 1 + 64 * (((out[table] as number) >> 4) + 1)) {
      if (out[table] !== 0x00) continue;
      for (let bit = 0, rest = n; rest > 0; bit += 1, rest = Math.floor(rest / 2)) {
        if (bit >= 40) throw new Error(`item number ${n} too large for a picture variant`);
        const entry = table + 2 + bit;
        const value = out[entry] as number;
        if (rest % 2) out[entry] = value < 255 ? value + 1 : value - 1;
      }
      return out;
    }
  }
  throw new Error('not a JPEG with an 8-bit luminance quantization table');
}

export async function basePictures(count: number, width = 1200, height = 800): Promise<Buffer[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      sharp({ create: { width, height, channels: 3, background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 }, noise: { type: 'gaussian', mean: 128, sigma: 12 } } })
        .jpeg({ quality: 80 })
        .toBuffer(),
    ),
  );
}

export interface ImageHost {
  url: string;
  port: string;
  requests: () => number;
  close(): Promise<void>;
}

/** Serves /img/N.jpg (a distinct JPEG), /gone/N.jpg (404), /text/N.jpg (not an image) and /page/N (a page without a picture). */
export async function startImageHost(pictures: Buffer[]): Promise<ImageHost> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests += 1;
    if (/^\/page\/\d+$/.test(req.url ?? '')) return void res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Words</title><p>No picture here.</p>');
    const match = /^\/(img|gone|text)\/(\d+)\.jpg$/.exec(req.url ?? '');
    if (!match) return void res.writeHead(404).end();
    const n = Number(match[2]);
    if (match[1] === 'gone') return void res.writeHead(404).end();
    if (match[1] === 'text') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(`item ${n}: just some text`);
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(pictureVariant(pictures[n % pictures.length] as Buffer, n));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port: String(port),
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** `pins` items in `boards` boards, every `badEvery`-th item a 404, a text file or without an image. */
export function pinbackFile(host: string, pins: number, boards: number, badEvery = 25): { html: string; items: PinbackItem[] } {
  const items: PinbackItem[] = [];
  for (let n = 0; n < pins; n++) {
    const board = `Board ${String(n % boards).padStart(2, '0')}`;
    const kind = n % badEvery === 7 ? 'gone' : n % badEvery === 13 ? 'text' : n % badEvery === 19 ? 'none' : 'img';
    items.push({
      board,
      title: `Pin ${n} #tag${n % 7}`,
      // Without IMAGE the item's picture is looked for on its page, which has none.
      href: kind === 'none' ? `${host}/page/${n}` : `https://source.example/page/${n}`,
      image: kind === 'none' ? null : `${host}/${kind}/${n}.jpg`,
      origLink: `https://www.pinterest.com/pin/${1000 + n}/`,
      tags: [`tag${n % 7}`, 'sea'],
      expect: kind === 'img' ? 'pin' : kind === 'none' ? 'no picture on the page' : kind === 'gone' ? 'not found (404)' : 'not an image',
    });
  }
  const byBoard = new Map<string, PinbackItem[]>();
  for (const item of items) byBoard.set(item.board, [...(byBoard.get(item.board) ?? []), item]);
  const lines = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">', '<TITLE>Bookmarks</TITLE>', '<H1>Bookmarks</H1>', '<DL><p>'];
  for (const [board, list] of byBoard) {
    lines.push(`<DT><H3 GUID="${escape(board)}" PRIVATE="false">${escape(board)}</H3>`, '<DL><p>');
    for (const item of list) {
      const image = item.image ? ` IMAGE="${escape(item.image)}"` : '';
      lines.push(
        `<DT><A HREF="${escape(item.href)}" GUID="g" ORIGLINK="${escape(item.origLink)}"${image} TAGS="Sea,c++,${item.tags[0]}" COLOR="#cccccc" AUTHOR="me" PRIVATE="false" ADD_DATE="1700000000">${escape(item.title)}</A>`,
      );
    }
    lines.push('</DL><p>');
  }
  lines.push('</DL><p>');
  // In file order: board by board.
  return { html: lines.join('\n'), items: [...byBoard.values()].flat() };
}
