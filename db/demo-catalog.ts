import { readFileSync } from 'node:fs';
import path from 'node:path';

// The demo's pictures: files in db/demo-images (served by the app at /seed-images) and their
// catalog, both built by scripts/demo-images.ts from Debian packages and committed, so the demo
// needs no network. Sources and licences: db/demo-images/LICENSES.md.

export const DEMO_IMAGES_DIR = path.resolve(import.meta.dirname, 'demo-images');
/** Where the app serves DEMO_IMAGES_DIR; a pin's image_url is this plus the file name. */
export const DEMO_IMAGES_PATH = '/seed-images/';

export interface DemoImage {
  /** File name in DEMO_IMAGES_DIR (JPEG for photos, WebP for drawings). */
  file: string;
  title: string;
  /** One or two sentences ending in 2–4 #tags. */
  description: string;
  tags: string[];
  kind: 'photo' | 'drawing';
  width: number;
  height: number;
  /** The Debian package it was taken from. */
  package: string;
  author: string | null;
  /** SPDX-style identifier (LICENSES.md spells each out). */
  license: string;
}

export interface DemoCatalog {
  about: string;
  /** In seed order: the first ones are the newest pins, and varied (see scripts/demo-images/selection.ts). */
  images: DemoImage[];
}

let cached: DemoImage[] | undefined;

/** The catalog's pictures in seed order (read once). */
export function demoImages(): readonly DemoImage[] {
  if (!cached) {
    const catalog = JSON.parse(readFileSync(path.join(DEMO_IMAGES_DIR, 'catalog.json'), 'utf8')) as DemoCatalog;
    if (!Array.isArray(catalog.images) || catalog.images.length === 0) throw new Error('db/demo-images/catalog.json lists no images');
    cached = catalog.images;
  }
  return cached;
}

/** The address a pin of this picture carries. */
export function demoImageUrl(image: Pick<DemoImage, 'file'>): string {
  return `${DEMO_IMAGES_PATH}${image.file}`;
}
