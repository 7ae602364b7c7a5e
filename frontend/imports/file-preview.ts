// What a file is and how many items it holds, told before it is sent (docs/import-export.md): read
// in the browser from the file's own bytes, the way the server will recognise it. A bookmark file is
// read as text (its links counted); of a ZIP only the central directory at its end is read, never
// the whole file. The server judges again: this is a preview, not a check.

export type PreviewKind = 'netscape' | 'pinboard' | 'images' | 'unknown';

export interface FilePreview {
  kind: PreviewKind;
  /** Pins the import should make (every link of a bookmark file, images in the ZIP, pins of an export). */
  items: number;
  /** Further entries of note: links whose pictures come from their pages, folders that become boards. */
  detail: string;
}

const IMAGE_NAME = /\.(jpe?g|png|webp|gif|avif)$/i;
/** A bookmark file is counted whole up to this size; past it, the count is an estimate from this much. */
const TEXT_SAMPLE = 32 * 1024 * 1024;

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

/** "1 board", "3 boards". */
const count = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/**
 * Every link is a pin: one with an IMAGE attribute takes that picture; the others' pictures are
 * fetched from their pages by the import (docs/import-export.md).
 */
function previewNetscape(text: string, estimate: number): FilePreview {
  const links = text.match(/<a\s[^>]*\bhref\s*=/gi)?.length ?? 0;
  const withImage = text.match(/<a\s(?=[^>]*\bhref\s*=)[^>]*\bimage\s*=/gi)?.length ?? 0;
  const boards = text.match(/<h3\b/gi)?.length ?? 0;
  const scale = (n: number) => Math.round(n * estimate);
  const others = Math.max(0, scale(links) - scale(withImage));
  const own = [withImage ? `${scale(withImage).toLocaleString('en-US')} with an image` : '', boards ? `in ${count(scale(boards), 'board')}` : ''].filter(Boolean).join(', ');
  const fetched = !others ? '' : withImage ? `pictures of the other ${others.toLocaleString('en-US')} will be fetched from their pages` : 'their pictures will be fetched from their pages';
  return { kind: 'netscape', items: scale(links), detail: [own, fetched].filter(Boolean).join(' — ') };
}

/** The names in a ZIP's central directory (found from the end record in its last 64 KiB). */
async function zipNames(file: File): Promise<string[] | null> {
  const tail = await bytesOf(file.slice(Math.max(0, file.size - 65_557)));
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  let end = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) return null;
  const size = view.getUint32(end + 12, true);
  const offset = view.getUint32(end + 16, true);
  if (offset === 0xffffffff || offset + size > file.size) return null;
  const directory = await bytesOf(file.slice(offset, offset + size));
  const dir = new DataView(directory.buffer, directory.byteOffset, directory.byteLength);
  const names: string[] = [];
  const decoder = new TextDecoder();
  for (let at = 0; at + 46 <= directory.length && dir.getUint32(at, true) === 0x02014b50;) {
    const nameLength = dir.getUint16(at + 28, true);
    const extraLength = dir.getUint16(at + 30, true);
    const commentLength = dir.getUint16(at + 32, true);
    names.push(decoder.decode(directory.subarray(at + 46, at + 46 + nameLength)));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

export async function previewFile(file: File): Promise<FilePreview> {
  const head = await bytesOf(file.slice(0, 4096));
  if (head[0] === 0x50 && head[1] === 0x4b) {
    const names = await zipNames(file);
    if (!names) return { kind: 'unknown', items: 0, detail: 'This ZIP could not be read.' };
    const files = names.filter((name) => !name.endsWith('/') && !name.split('/').some((part) => part === '__MACOSX' || part.startsWith('.')));
    if (files.includes('pinboard.json')) {
      const images = files.filter((name) => name.startsWith('images/')).length;
      return { kind: 'pinboard', items: Math.max(images, 0), detail: `a Pinboard export with ${images.toLocaleString('en-US')} image${images === 1 ? '' : 's'}` };
    }
    const images = files.filter((name) => IMAGE_NAME.test(name));
    const folders = new Set(images.map((name) => name.split('/').slice(0, -1).pop()).filter(Boolean));
    if (!images.length) return { kind: 'unknown', items: 0, detail: 'This ZIP holds no images.' };
    return {
      kind: 'images',
      items: images.length,
      detail: `${folders.size.toLocaleString('en-US')} folder${folders.size === 1 ? '' : 's'} as boards${files.includes('pins.csv') ? ', with pins.csv' : ''}`,
    };
  }
  const text = await file.slice(0, TEXT_SAMPLE).text();
  if (/^\s*(\uFEFF)?\s*<!doctype netscape-bookmark-file/i.test(text) || (/<dl/i.test(text) && /<dt>\s*<(a|h3)\b/i.test(text))) {
    return previewNetscape(text, file.size > TEXT_SAMPLE ? file.size / TEXT_SAMPLE : 1);
  }
  return { kind: 'unknown', items: 0, detail: 'Pinboard imports bookmark files (HTML), Pinboard exports and ZIPs of images.' };
}

export const KIND_NAMES: Record<PreviewKind | 'netscape' | 'pinboard' | 'images', string> = {
  netscape: 'Bookmark file',
  pinboard: 'Pinboard export',
  images: 'ZIP of images',
  unknown: 'Not a file Pinboard imports',
};
