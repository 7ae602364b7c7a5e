import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BackgroundRequest } from '../lib/messages.ts';
import { openPicker } from './picker.ts';
import { uiRoot } from './ui-root.ts';

// The background, as the picker asks it: the preview's answer waits until the test gives it.
const background = vi.hoisted(() => ({
  asked: [] as unknown[],
  givePreview: (_answer: unknown) => undefined as void,
}));

vi.mock('../lib/ask.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/ask.ts')>()),
  ask: vi.fn((request: BackgroundRequest) => {
    background.asked.push(request);
    if (request.type === 'preview') return new Promise((resolve) => (background.givePreview = resolve));
    if (request.type === 'boards') return Promise.resolve({ ok: true, recent: [], boards: [{ id: 1, name: 'Kites' }], nextCursor: null });
    if (request.type === 'save') return Promise.resolve({ ok: true, board: request.board, saved: [{ id: 9, src: request.images[0]?.src, via: 'upload' }], failed: [] });
    return Promise.resolve({ ok: true });
  }),
}));

const SRC = 'https://kittens.example/kitten.jpg';
const BYTES = [0xff, 0xd8, 1, 2, 3, 0xff, 0xd9];
const made: Blob[] = [];

beforeEach(() => {
  background.asked.length = 0;
  made.length = 0;
  // jsdom has no object URLs: these record the Blob the preview is made of.
  vi.stubGlobal('URL', Object.assign(class extends URL {}, {
    createObjectURL: (blob: Blob) => `blob:preview-${made.push(blob)}`,
    revokeObjectURL: () => undefined,
  }));
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
