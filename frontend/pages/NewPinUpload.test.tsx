// The New Pin page's image upload (docs/images.md): a file chosen with the picker, dropped on the
// preview or pasted is previewed at once, uploaded with its progress to POST /api/images/
// (multipart, field `file`, with the anti-forgery header), and its address becomes the pin's image
// URL; refusals (the server's, or the client's own before sending) are shown; Save waits for it.
import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../contract/limits.ts';
import { IMAGE_MSG, MAX_IMAGE_BYTES } from '../api/images.ts';
import { dropFiles, objectUrlLog, pasteFiles, storedImage, testFile } from '../test-support/files.ts';
import { alice, errorBody, makePin, renderApp, type Call, type Handler } from '../test-support/render.tsx';

/** A gate a handler waits at until the test opens it. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const image = storedImage('c0ffee', 1200, 900);

/** The server: uploads answer `image` (after `hold`), creates answer a pin with the sent URL. */
function server({ hold, upload }: { hold?: Promise<void>; upload?: Handler } = {}): Record<string, Handler> {
  return {
    'POST /api/images/':
      upload ??
      (async (call: Call) => {
        call.progress?.(30, 100);
        await hold;
        call.progress?.(100, 100);
        return { status: 201, body: { image } };
      }),
    'POST /api/pins/': (call: Call) => {
      const body = call.body as { title: string; imageUrl: string; description: string };
      return { status: 201, body: makePin(9, alice, { title: body.title, image_url: body.imageUrl, image: body.imageUrl === image.url ? image : null }) };
    },
    'GET /api/pins/': { body: { pins: [], nextCursor: null } },
  };
}

async function openPage(handlers: Record<string, Handler>) {
  document.cookie = 'XSRF-TOKEN=token-1; path=/';
  const view = renderApp('/pins/new', { user: alice, handlers });
  await screen.findByRole('heading', { name: 'Create a New Pin' });
  return view;
}

const photo = () => testFile('harbour.png', 'image/png');
const urlField = () => screen.getByLabelText<HTMLInputElement>('Image URL');
const preview = () => screen.queryByAltText<HTMLImageElement>('Preview of the image');

describe('New Pin page: image upload', () => {
  it('by the picker: a preview at once, progress, then the uploaded address fills the image URL and the pin is created with it', async () => {
    const held = gate();
    const { ui, sent, router } = await openPage(server({ hold: held.opened }));
    const file = photo();
    await ui.upload(screen.getByLabelText('Image file'), file);

    expect(preview()?.getAttribute('src')).toMatch(/^blob:/);
    const bar = await screen.findByRole('progressbar', { name: 'Uploading harbour.png' });
    await waitFor(() => expect(bar.getAttribute('aria-valuenow')).toBe('30'));
    expect(bar.getAttribute('aria-valuemin')).toBe('0');
    expect(bar.getAttribute('aria-valuemax')).toBe('100');
    expect(screen.getByText('Uploading harbour.png…').getAttribute('role')).toBe('status');

    const [upload] = sent('POST', '/api/images/');
    expect(upload?.body).toBeInstanceOf(FormData);
    const sentFile = (upload?.body as FormData).get('file') as File;
    expect([sentFile.name, sentFile.type, sentFile.size]).toEqual([file.name, file.type, file.size]);
    expect(upload?.headers['X-XSRF-TOKEN']).toBe('token-1');

    held.open();
    expect(await screen.findByText('Image uploaded.')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(urlField().value).toBe(image.url);
    expect(preview()?.getAttribute('src')).toMatch(/^blob:/); // the local preview stays

    // The empty title was filled in from the file's name; the user writes their own.
    const title = screen.getByLabelText<HTMLInputElement>('Title');
    expect(title.value).toBe('harbour');
    await ui.clear(title);
    await ui.type(title, 'Harbour');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(sent('POST', '/api/pins/')[0]?.body).toEqual({ title: 'Harbour', imageUrl: image.url, description: '' });
    // The preview's object URL is freed once the page is gone.
    await screen.findByRole('heading', { name: 'Your Awesome Pins!' });
    expect(objectUrlLog().created).toHaveLength(1);
    // React runs a left page's effect clean-ups after the next page is on screen: eventually.
    await waitFor(() => expect(objectUrlLog().revoked).toEqual(objectUrlLog().created));
  });

  it('by dropping a file on the preview', async () => {
    const { sent } = await openPage(server());
    dropFiles(screen.getByTestId('image-drop-zone'), [photo()]);
    expect(preview()?.getAttribute('src')).toMatch(/^blob:/);
    await waitFor(() => expect(urlField().value).toBe(image.url));
    expect(sent('POST', '/api/images/')).toHaveLength(1);
  });

  it('by pasting anywhere on the page; text pasted into a field stays text', async () => {
    const { sent } = await openPage(server());
    pasteFiles([photo()], screen.getByLabelText('Title'), 'a caption');
    expect(sent('POST', '/api/images/')).toHaveLength(0); // the field got the text
    pasteFiles([photo()]);
    // The preview comes with the next render: on a loaded machine that is not at once.
    await waitFor(() => expect(preview()?.getAttribute('src')).toMatch(/^blob:/));
    await waitFor(() => expect(urlField().value).toBe(image.url));
    expect(sent('POST', '/api/images/')).toHaveLength(1);
  });

  it("shows the server's refusal, and the pin then needs an image", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { ui, sent } = await openPage(server({ upload: { status: 400, body: errorBody(IMAGE_MSG.notAnImage) } }));
    await ui.upload(screen.getByLabelText('Image file'), testFile('renamed.png', 'image/png'));
    expect((await screen.findByRole('alert')).textContent).toBe(IMAGE_MSG.notAnImage);
    expect(urlField().value).toBe('');
    await ui.type(screen.getByLabelText('Title'), 'T');
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    expect(await screen.findByText('Image URL is required.')).toBeTruthy();
    expect(sent('POST', '/api/pins/')).toHaveLength(0);
  });

  it('a 413 without a message (from a proxy) still says how big an image may be', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { ui } = await openPage(server({ upload: { status: 413 } }));
    await ui.upload(screen.getByLabelText('Image file'), photo());
    expect((await screen.findByRole('alert')).textContent).toBe(IMAGE_MSG.tooLarge);
  });

  it('refuses a file over 20 MB before sending anything', async () => {
    const { ui, sent } = await openPage(server());
    await ui.upload(screen.getByLabelText('Image file'), testFile('huge.jpg', 'image/jpeg', MAX_IMAGE_BYTES + 1));
    expect((await screen.findByRole('alert')).textContent).toBe(IMAGE_MSG.tooLarge);
    expect(sent('POST', '/api/images/')).toHaveLength(0);
    expect(preview()).toBeNull();
    expect(objectUrlLog().created).toEqual([]);
  });

  it('refuses a file that is not an image before sending anything', async () => {
    const { sent } = await openPage(server());
    dropFiles(screen.getByTestId('image-drop-zone'), [testFile('notes.txt', 'text/plain')]);
    expect((await screen.findByRole('alert')).textContent).toBe(IMAGE_MSG.notAnImage);
    expect(sent('POST', '/api/images/')).toHaveLength(0);
    expect(preview()).toBeNull();
  });

  it('Save waits for a running upload, then creates the pin with the uploaded address', async () => {
    const held = gate();
    const { ui, sent, router } = await openPage(server({ hold: held.opened }));
    await ui.type(screen.getByLabelText('Title'), 'Harbour');
    await ui.upload(screen.getByLabelText('Image file'), photo());
    const save = screen.getByRole('button', { name: 'Save Pin' });
    await ui.click(save);
    expect(await screen.findByText('Saving as soon as the image has uploaded…')).toBeTruthy();
    expect((save as HTMLButtonElement).disabled).toBe(true);
    expect(screen.queryByText('Image URL is required.')).toBeNull();
    expect(sent('POST', '/api/pins/')).toHaveLength(0);

    held.open();
    await waitFor(() => expect(router.state.location.pathname).toBe('/pins'));
    expect(sent('POST', '/api/pins/')).toHaveLength(1);
    expect(sent('POST', '/api/pins/')[0]?.body).toEqual({ title: 'Harbour', imageUrl: image.url, description: '' });
  });

  it('cancelling the upload drops the file and frees its preview; a Save that was waiting stops', async () => {
    const held = gate();
    const { ui, sent, router } = await openPage(server({ hold: held.opened }));
    await ui.type(screen.getByLabelText('Title'), 'Harbour');
    await ui.upload(screen.getByLabelText('Image file'), photo());
    await ui.click(screen.getByRole('button', { name: 'Save Pin' }));
    await ui.click(await screen.findByRole('button', { name: 'Cancel upload' }));

    expect(await screen.findByText('Upload cancelled.')).toBeTruthy();
    expect(preview()).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(objectUrlLog().revoked).toEqual(objectUrlLog().created);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose an image' }));
    await waitFor(() => expect((screen.getByRole('button', { name: 'Save Pin' }) as HTMLButtonElement).disabled).toBe(false));
    await act(async () => held.open()); // a late answer changes nothing
    expect(urlField().value).toBe('');
    expect(sent('POST', '/api/pins/')).toHaveLength(0);
    expect(router.state.location.pathname).toBe('/pins/new');
  });

  it('choosing a file replaces a typed URL; typing a URL drops the file; Remove image clears its address', async () => {
    const held = gate();
    const { ui } = await openPage(server({ hold: held.opened }));
    await ui.type(urlField(), 'https://example.com/a.jpg');
    await ui.upload(screen.getByLabelText('Image file'), photo());
    expect(urlField().value).toBe('');
    held.open();
    await waitFor(() => expect(urlField().value).toBe(image.url));

    await ui.clear(urlField());
    await ui.type(urlField(), '/seed-images/citrus.svg');
    expect(screen.queryByRole('button', { name: 'Remove image' })).toBeNull();
    expect(preview()?.getAttribute('src')).toBe('/seed-images/citrus.svg');
    expect(objectUrlLog().revoked).toEqual(objectUrlLog().created);

    await ui.upload(screen.getByLabelText('Image file'), photo());
    await waitFor(() => expect(urlField().value).toBe(image.url));
    await ui.click(screen.getByRole('button', { name: 'Remove image' }));
    expect(urlField().value).toBe('');
    expect(preview()).toBeNull();
    expect(screen.getByText('Image removed.')).toBeTruthy();
  });

  it('names the pin from a dropped, pasted or picked file when the title is empty; a typed title is kept', async () => {
    const { ui } = await openPage(server());
    const title = () => screen.getByLabelText<HTMLInputElement>('Title');
    dropFiles(screen.getByTestId('image-drop-zone'), [testFile('IMG_2041-beach_day.final.jpeg', 'image/jpeg')]);
    await waitFor(() => expect(title().value).toBe('IMG 2041 beach day.final'));
    // Another file replaces a title that came from a file name…
    pasteFiles([testFile('harbour-at-dusk.png', 'image/png')]);
    await waitFor(() => expect(title().value).toBe('harbour at dusk'));
    // …never one the user typed.
    await ui.clear(title());
    await ui.type(title(), 'My harbour');
    await ui.upload(screen.getByLabelText('Image file'), testFile('other_one.png', 'image/png'));
    await waitFor(() => expect(urlField().value).toBe(image.url));
    expect(title().value).toBe('My harbour');
  });

  it('cuts a long file name to the title limit', async () => {
    await openPage(server());
    const long = `${'very_long_name-'.repeat(30)}.png`;
    dropFiles(screen.getByTestId('image-drop-zone'), [testFile(long, 'image/png')]);
    const title = screen.getByLabelText<HTMLInputElement>('Title');
    await waitFor(() => expect(title.value.startsWith('very long name very long name')).toBe(true));
    // At most the limit, not ending in a space.
    expect(title.value.length).toBeLessThanOrEqual(LIMITS.title);
    expect(title.value.length).toBeGreaterThan(LIMITS.title - 15);
    expect(title.value).toBe(title.value.trim());
  });
});
