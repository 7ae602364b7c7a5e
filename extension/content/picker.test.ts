import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BackgroundRequest } from '../lib/messages.ts';
import { openPicker } from './picker.ts';
import { uiRoot } from './ui-root.ts';

// The background, as the picker asks it: the preview's answer waits until the test gives it.
const background = vi.hoisted(() => ({
  asked: [] as unknown[],
  givePreview: (_answer: unknown) => undefined as void,
  /** The user's pin of the picture the next save answers as saved already (null: none). */
  seen: null as unknown,
}));

vi.mock('../lib/ask.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/ask.ts')>()),
  ask: vi.fn((request: BackgroundRequest) => {
    background.asked.push(request);
    if (request.type === 'preview') return new Promise((resolve) => (background.givePreview = resolve));
    if (request.type === 'boards') return Promise.resolve({ ok: true, recent: [], boards: [{ id: 1, name: 'Kites' }], nextCursor: null });
    if (request.type === 'save') {
      const src = request.images[0]?.src;
      if (background.seen && !request.images[0]?.saveAnyway) return Promise.resolve({ ok: true, board: request.board, saved: [], seen: [{ src, duplicate: background.seen }], failed: [] });
      return Promise.resolve({ ok: true, board: request.board, saved: [{ id: 9, src, via: 'upload' }], seen: [], failed: [] });
    }
    return Promise.resolve({ ok: true });
  }),
}));

const SRC = 'https://kittens.example/kitten.jpg';
const BYTES = [0xff, 0xd8, 1, 2, 3, 0xff, 0xd9];
const made: Blob[] = [];

beforeEach(() => {
  background.asked.length = 0;
  background.seen = null;
  made.length = 0;
  // jsdom has no object URLs: these record the Blob the preview is made of.
  vi.stubGlobal(
    'URL',
    Object.assign(class extends URL {}, {
      createObjectURL: (blob: Blob) => `blob:preview-${made.push(blob)}`,
      revokeObjectURL: () => undefined,
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  uiRoot().querySelector('.panel')?.remove();
});

const boards = () => uiRoot().querySelectorAll<HTMLButtonElement>('.board');
const thumb = () => uiRoot().querySelector<HTMLImageElement>('.panel__thumb');

describe('the board picker', () => {
  it('previews the very bytes it will upload, and offers the boards only once they are shown', async () => {
    openPicker({ src: SRC, alt: 'A kitten', rect: null }, 'https://pins.example');
    expect(background.asked).toContainEqual({ type: 'preview', src: SRC, pageUrl: location.href });
    // The picture's address is never loaded by the picker itself; no board can be clicked yet.
    await vi.waitFor(() => expect(background.asked).toContainEqual({ type: 'boards', cursor: null }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(thumb()?.getAttribute('src') ?? '').not.toBe(SRC);
    expect(boards()).toHaveLength(0);

    background.givePreview({ ok: true, preview: { digest: 'd1g35t', type: 'image/jpeg', base64: btoa(String.fromCharCode(...BYTES)) } });
    await vi.waitFor(() => expect(boards()).toHaveLength(1));
    expect(thumb()?.getAttribute('src')).toBe('blob:preview-1');
    expect(made[0]?.type).toBe('image/jpeg');
    expect(Array.from(new Uint8Array(await (made[0] as Blob).arrayBuffer()))).toEqual(BYTES);

    boards()[0]?.click();
    await vi.waitFor(() => expect(background.asked).toContainEqual(expect.objectContaining({ type: 'save' })));
    const save = background.asked.find((r) => (r as BackgroundRequest).type === 'save') as Extract<BackgroundRequest, { type: 'save' }>;
    expect(save.images).toEqual([{ src: SRC, alt: 'A kitten', title: 'A kitten', shown: 'd1g35t' }]);
  });

  it('says so when the bytes cannot be had, and then saves by address without a preview', async () => {
    openPicker({ src: SRC, alt: '', rect: null }, 'https://pins.example');
    background.givePreview({ ok: true, preview: null, reason: 'answered 403' });
    await vi.waitFor(() => expect(boards()).toHaveLength(1));
    expect(thumb()?.hasAttribute('src')).toBe(false);
    expect(uiRoot().querySelector('.panel')?.textContent).toMatch(/from its address/);
    boards()[0]?.click();
    await vi.waitFor(() => expect(background.asked).toContainEqual(expect.objectContaining({ type: 'save' })));
    const save = background.asked.find((r) => (r as BackgroundRequest).type === 'save') as Extract<BackgroundRequest, { type: 'save' }>;
    expect(save.images[0]?.shown).toBeNull();
  });
});

describe('the board picker: alt text and a picture saved already (docs/duplicates.md)', () => {
  const saves = () => background.asked.filter((r) => (r as BackgroundRequest).type === 'save') as Array<Extract<BackgroundRequest, { type: 'save' }>>;

  it('sends the alt text typed; a picture saved already shows the warning, and Save anyway saves it', async () => {
    background.seen = { pin: { id: 4, created_at: '2026-03-03T12:00:00.000Z' }, boards: [{ id: 1, name: 'Kites' }] };
    openPicker({ src: SRC, alt: 'A kitten', rect: null }, 'https://pins.example');
    background.givePreview({ ok: true, preview: { digest: 'd1g35t', type: 'image/jpeg', base64: btoa(String.fromCharCode(...BYTES)) } });
    await vi.waitFor(() => expect(boards()).toHaveLength(1));
    const alt = uiRoot().querySelector<HTMLInputElement>('input[aria-label="Alt text"]') as HTMLInputElement;
    expect(alt.maxLength).toBe(500);
    alt.value = 'A grey kitten asleep';
    boards()[0]?.click();

    const warning = await vi.waitFor(() => uiRoot().querySelector('.saved-already') ?? Promise.reject(new Error('no warning yet')));
    expect(warning.querySelector('.saved-already__words')?.textContent).toBe('You saved this on March 3, 2026 to Kites');
    const open = warning.querySelector('a') as HTMLAnchorElement;
    expect([open.textContent, open.getAttribute('href'), open.target]).toEqual(['Open it', 'https://pins.example/pins/4', '_blank']);
    expect(saves()[0]?.images[0]).toMatchObject({ altText: 'A grey kitten asleep' });
    expect(uiRoot().querySelector('.panel')).not.toBeNull(); // nothing saved: the picker stays

    (warning.querySelector('button') as HTMLButtonElement).click();
    await vi.waitFor(() => expect(saves()).toHaveLength(2));
    expect(saves()[1]?.images[0]).toMatchObject({ saveAnyway: true, altText: 'A grey kitten asleep' });
    expect(saves()[1]?.board).toEqual({ id: 1, name: 'Kites' });
    await vi.waitFor(() => expect(uiRoot().querySelector('.panel')).toBeNull());
  });
});
