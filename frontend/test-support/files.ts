// Files in the component tests: image files to choose, drop and paste, and object URLs (jsdom has
// no URL.createObjectURL) that the tests can count, to see every preview URL revoked.
import { fireEvent } from '@testing-library/react';
import { rgbaToThumbHash } from 'thumbhash';
import type { StoredImage } from '../../contract/images.ts';

const objectUrls = { created: [] as string[], revoked: [] as string[] };
let installed = false;

export function installObjectUrlShim(): void {
  if (installed || typeof URL === 'undefined') return;
  installed = true;
  URL.createObjectURL = (blob: Blob | MediaSource) => {
    const url = `blob:http://localhost/preview-${objectUrls.created.length + 1}-${blob instanceof File ? blob.name : 'blob'}`;
    objectUrls.created.push(url);
    return url;
  };
  URL.revokeObjectURL = (url: string) => {
    objectUrls.revoked.push(url);
  };
}

/** The object URLs made and revoked since the test began. */
export function objectUrlLog(): { readonly created: readonly string[]; readonly revoked: readonly string[] } {
  return objectUrls;
}

export function resetObjectUrls(): void {
  objectUrls.created = [];
  objectUrls.revoked = [];
}

/** A small file; `size` pretends it is that big (without allocating it). */
export function testFile(name: string, type: string, size?: number): File {
  const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4])], name, { type });
  if (size !== undefined) Object.defineProperty(file, 'size', { value: size });
  return file;
}

/** Drags files over `target` and drops them, as a browser does. */
export function dropFiles(target: Element, files: File[]): void {
  const dataTransfer = { files, types: ['Files'], items: [], dropEffect: 'none' };
  fireEvent.dragEnter(target, { dataTransfer });
  fireEvent.dragOver(target, { dataTransfer });
  fireEvent.drop(target, { dataTransfer });
}

/** Pastes files (Ctrl/Cmd+V) with the focus on `target` (the page's body by default). */
export function pasteFiles(files: File[], target: Element = document.body, text?: string): void {
  const types = text === undefined ? ['Files'] : ['text/plain', 'Files'];
  fireEvent.paste(target, { clipboardData: { files, types, items: [], getData: (type: string) => (type === 'text/plain' ? (text ?? '') : '') } });
}

/** A real thumbhash (base64) of a small two-colour picture, `w`×`h` pixels. */
export function testThumbhash(w = 8, h = 6): string {
  const rgba = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) rgba.set(i % w < w / 2 ? [200, 60, 40, 255] : [40, 90, 200, 255], i * 4);
  return btoa(String.fromCharCode(...rgbaToThumbHash(w, h, rgba)));
}

/** A stored image as POST /api/images/ answers it, named by `key`. */
export function storedImage(key: string, width = 1200, height = 800): StoredImage {
  return {
    url: `/media/${key.slice(0, 2)}/${key}.jpg`,
    width,
    height,
    placeholder: testThumbhash(),
    thumbnails: { '236': `/media/${key.slice(0, 2)}/${key}-236.webp`, '736': `/media/${key.slice(0, 2)}/${key}-736.webp` },
    colors: [],
    palette: [],
    text: null,
  };
}
