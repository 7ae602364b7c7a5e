import { type DemoImage, demoImages, demoImageUrl } from '../../db/demo-catalog.ts';

// The demo data as tests see it: they seed the first DEMO_PINS pictures of the catalog
// (`startServer({ seed: { pins: DEMO_PINS } })`), and point the pins they create at files the app
// really serves.

export const DEMO_PINS = 12;

/** The seeded pins' pictures, newest first: [0] is the newest pin (the demo user's, two likes). */
export const seededImages: readonly DemoImage[] = demoImages().slice(0, DEMO_PINS);

function first(kind: DemoImage['kind']): DemoImage {
  const image = seededImages.find((candidate) => candidate.kind === kind);
  if (!image) throw new Error(`no ${kind} among the first ${DEMO_PINS} demo pictures`);
  return image;
}

/** Same-site image addresses of real files: a JPEG photo and a WebP drawing. */
export const PHOTO_URL = demoImageUrl(first('photo'));
export const DRAWING_URL = demoImageUrl(first('drawing'));
