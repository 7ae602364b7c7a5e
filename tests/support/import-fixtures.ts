import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

// A Pinback-style export (Pinterest boards as <H3>, pins as <A HREF IMAGE ORIGLINK ADD_DATE>) and
// the image host its IMAGE addresses point to: a local server, allowed for the test through
// IMPORT_ALLOW_CIDRS/IMPORT_ALLOW_PORTS. Every good address answers a distinct JPEG of at most
// 1200 px (a base picture with the item's number in a comment block, so no two are the same
// bytes); some answer 404, some text that is not an image, and some items have no IMAGE at all.

export interface PinbackItem {
  board: string;
  title: string;
  href: string;
  image: string | null;
  origLink: string;
  /** What the import must make of it. */
  expect: 'pin' | 'no image' | 'not found (404)' | 'not an image';
}

/** A JPEG's bytes with a comment block after its start marker: another file, the same picture. */
export function withComment(jpegBytes: Buffer, text: string): Buffer {
  const comment = Buffer.from(text, 'latin1');
  const header = Buffer.from([0xff, 0xfe, (comment.length + 2) >> 8, (comment.length + 2) & 0xff]);
  return Buffer.concat([jpegBytes.subarray(0, 2), header, comment, jpegBytes.subarray(2)]);
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

/** Serves /img/N.jpg (a distinct JPEG), /gone/N.jpg (404) and /text/N.jpg (not an image). */
export async function startImageHost(pictures: Buffer[]): Promise<ImageHost> {
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests += 1;
    const match = /^\/(img|gone|text)\/(\d+)\.jpg$/.exec(req.url ?? '');
    if (!match) return void res.writeHead(404).end();
    const n = Number(match[2]);
    if (match[1] === 'gone') return void res.writeHead(404).end();
    if (match[1] === 'text') return void res.writeHead(200, { 'content-type': 'image/jpeg' }).end(`item ${n}: just some text`);
    res.writeHead(200, { 'content-type': 'image/jpeg' }).end(withComment(pictures[n % pictures.length] as Buffer, `item ${n}`));
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
      href: `https://source.example/page/${n}`,
      image: kind === 'none' ? null : `${host}/${kind}/${n}.jpg`,
      origLink: `https://www.pinterest.com/pin/${1000 + n}/`,
      expect: kind === 'img' ? 'pin' : kind === 'none' ? 'no image' : kind === 'gone' ? 'not found (404)' : 'not an image',
    });
  }
  const byBoard = new Map<string, PinbackItem[]>();
  for (const item of items) byBoard.set(item.board, [...(byBoard.get(item.board) ?? []), item]);
  const lines = ['<!DOCTYPE NETSCAPE-Bookmark-file-1>', '<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">', '<TITLE>Bookmarks</TITLE>', '<H1>Bookmarks</H1>', '<DL><p>'];
  for (const [board, list] of byBoard) {
    lines.push(`<DT><H3 GUID="${escape(board)}" PRIVATE="false">${escape(board)}</H3>`, '<DL><p>');
    for (const item of list) {
      const image = item.image ? ` IMAGE="${escape(item.image)}"` : '';
      lines.push(`<DT><A HREF="${escape(item.href)}" GUID="g" ORIGLINK="${escape(item.origLink)}"${image} COLOR="#cccccc" AUTHOR="me" PRIVATE="false" ADD_DATE="1700000000">${escape(item.title)}</A>`);
    }
    lines.push('</DL><p>');
  }
  lines.push('</DL><p>');
  // In file order: board by board.
  return { html: lines.join('\n'), items: [...byBoard.values()].flat() };
}
