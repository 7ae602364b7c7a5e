import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Pin } from '../../contract/pins.ts';
import type { DuplicatePin, ImageUploaded } from '../../contract/duplicates.ts';
import { LIMITS } from '../../contract/limits.ts';
import type { PinboardApi } from './pinboard-api.ts';
import { saveImages } from './save.ts';
import { forgetShownImages, previewImage } from './shown-images.ts';

const PAGE = { url: 'https://kittens.example/cute', title: 'Cute kittens' };
const SRC = 'https://kittens.example/kitten.jpg';
const KITTEN = new Uint8Array([0xff, 0xd8, 1, 1, 1, 0xff, 0xd9]);
const SWAPPED = new Uint8Array([0xff, 0xd8, 6, 6, 6, 0xff, 0xd9]);

/** The site's answers, in turn (the last one repeats): a server may answer each request differently. */
let answers: Array<Uint8Array<ArrayBuffer>> = [];
const fetchSpy = vi.fn(async () => new Response(answers.length > 1 ? answers.shift() : answers[0], { headers: { 'Content-Type': 'image/jpeg' } }));

const uploads: Uint8Array[] = [];
/** The user's pins of the picture, as the server answers them (upload or check). */
let duplicates: DuplicatePin[] = [];
const api = {
  uploadImage: vi.fn(async (blob: Blob) => {
    uploads.push(new Uint8Array(await blob.arrayBuffer()));
    return { image: { url: '/media/abc.jpg' }, duplicates } as ImageUploaded;
  }),
  checkPicture: vi.fn(async () => duplicates),
  createPin: vi.fn(async () => ({ id: 7 }) as Pin),
  deletePin: vi.fn(async () => undefined),
};
const asApi = api as unknown as PinboardApi;

beforeEach(() => {
  uploads.length = 0;
  duplicates = [];
  for (const fn of [fetchSpy, ...Object.values(api)]) fn.mockClear();
  vi.stubGlobal('fetch', fetchSpy);
  forgetShownImages();
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('saving the very bytes the user was shown', () => {
  it('uploads the previewed bytes, even when the site would now answer others', async () => {
    answers = [KITTEN, SWAPPED];
    const shown = await previewImage(SRC, PAGE.url);
    if (!('preview' in shown)) throw new Error(shown.failed);
    expect(Uint8Array.from(atob(shown.preview.base64), (c) => c.charCodeAt(0))).toEqual(KITTEN);

    const outcome = await saveImages(asApi, [{ src: SRC, alt: 'A kitten', shown: shown.preview.digest }], PAGE, null);
    expect(outcome.saved).toEqual([{ id: 7, src: SRC, via: 'upload' }]);
    expect(uploads).toEqual([KITTEN]);
    expect(fetchSpy).toHaveBeenCalledTimes(1); // the preview's fetch, not a second one
  });

  it('saves nothing when the kept bytes are gone and the site now answers others', async () => {
    answers = [KITTEN, SWAPPED];
    const shown = await previewImage(SRC, PAGE.url);
    if (!('preview' in shown)) throw new Error(shown.failed);
    forgetShownImages(); // the background was restarted between the preview and the click
    const outcome = await saveImages(asApi, [{ src: SRC, alt: 'A kitten', shown: shown.preview.digest }], PAGE, null);
    expect(outcome.saved).toEqual([]);
    expect(outcome.failed).toEqual([{ src: SRC, message: expect.stringMatching(/changed/) }]);
    expect(api.uploadImage).not.toHaveBeenCalled();
    expect(api.createPin).not.toHaveBeenCalled();
  });

  it('fetches again and uploads when the kept bytes are gone but the site answers the same', async () => {
    answers = [KITTEN];
    const shown = await previewImage(SRC, PAGE.url);
    if (!('preview' in shown)) throw new Error(shown.failed);
    forgetShownImages();
    const outcome = await saveImages(asApi, [{ src: SRC, alt: 'A kitten', shown: shown.preview.digest }], PAGE, null);
    expect(outcome.saved).toEqual([{ id: 7, src: SRC, via: 'upload' }]);
    expect(uploads).toEqual([KITTEN]);
  });

  it('bytes previewed for one page are not handed to another', async () => {
    answers = [KITTEN, SWAPPED];
    const shown = await previewImage(SRC, PAGE.url);
    if (!('preview' in shown)) throw new Error(shown.failed);
    const outcome = await saveImages(asApi, [{ src: SRC, alt: '', shown: shown.preview.digest }], { url: 'https://other.example/', title: '' }, null);
    expect(outcome.saved).toEqual([]);
    expect(api.uploadImage).not.toHaveBeenCalled();
  });

  it('with no preview shown (the bytes could not be had), fetches nothing and lets the server import the address', async () => {
    answers = [KITTEN];
    const outcome = await saveImages(asApi, [{ src: SRC, alt: '', shown: null }], PAGE, null);
    expect(outcome.saved).toEqual([{ id: 7, src: SRC, via: 'url' }]);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(api.createPin).toHaveBeenCalledWith(expect.objectContaining({ imageUrl: SRC }));
  });

  it('a private address on a public page is never fetched; the server (whose guard refuses it) is asked instead', async () => {
    answers = [KITTEN];
    const preview = await previewImage('http://intranet/secret.jpg', PAGE.url);
    expect(preview).toEqual({ failed: expect.stringMatching(/private/) });
    const outcome = await saveImages(asApi, [{ src: 'http://intranet/secret.jpg', alt: '' }], PAGE, null);
    expect(outcome.saved).toEqual([{ id: 7, src: 'http://intranet/secret.jpg', via: 'url' }]);
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe('a picture saved already, and the alt text (docs/duplicates.md)', () => {
  const before: DuplicatePin = { pin: { id: 4, created_at: '2026-03-03T12:00:00.000Z' } as Pin, boards: [{ id: 2, name: 'Cats' }] };

  it('an upload the user has a pin of makes no pin; Save anyway makes it, with its alt text', async () => {
    answers = [KITTEN];
    duplicates = [before];
    const shown = await previewImage(SRC, PAGE.url);
    if (!('preview' in shown)) throw new Error(shown.failed);
    const image = { src: SRC, alt: 'A kitten', altText: ' A grey kitten asleep ', shown: shown.preview.digest };
    const first = await saveImages(asApi, [image], PAGE, null);
    expect(first).toEqual({ saved: [], seen: [{ src: SRC, duplicate: before }], failed: [] });
    expect(api.createPin).not.toHaveBeenCalled();

    const again = await saveImages(asApi, [{ ...image, saveAnyway: true }], PAGE, null);
    expect(again.saved).toEqual([{ id: 7, src: SRC, via: 'upload' }]);
    expect(api.createPin).toHaveBeenCalledWith(expect.objectContaining({ imageUrl: '/media/abc.jpg', altText: 'A grey kitten asleep' }));
  });

  it("a page's alt text longer than a pin's is cut to its start", async () => {
    const long = `A kite over the hill ${'and further '.repeat(60)}`;
    await saveImages(asApi, [{ src: SRC, alt: long, altText: long, shown: null }], PAGE, null);
    const cut = long.slice(0, LIMITS.altText).trim();
    expect(cut.length).toBeGreaterThan(LIMITS.altText - 12);
    expect(api.createPin).toHaveBeenCalledWith(expect.objectContaining({ altText: cut }));
  });

  it('without bytes, the server checks the address; a failed check lets the save go on', async () => {
    duplicates = [before];
    const seen = await saveImages(asApi, [{ src: SRC, alt: '', shown: null }], PAGE, null);
    expect(seen.seen).toEqual([{ src: SRC, duplicate: before }]);
    expect(api.checkPicture).toHaveBeenCalledWith(SRC);
    api.checkPicture.mockRejectedValueOnce(new Error('busy'));
    const saved = await saveImages(asApi, [{ src: SRC, alt: '', shown: null }], PAGE, null);
    expect(saved.saved).toEqual([{ id: 7, src: SRC, via: 'url' }]);
    expect(api.createPin).toHaveBeenCalledWith(expect.not.objectContaining({ altText: expect.anything() }));
  });
});
