import { describe, expect, it } from 'vitest';
import { MSG } from '../../contract/messages.ts';
import { storedImage, testFile } from '../test-support/files.ts';
import { errorBody, mockApi } from '../test-support/render.tsx';
import { ApiError } from './client.ts';
import { checkImageFile, IMAGE_MSG, isAbort, MAX_IMAGE_BYTES, uploadImage } from './images.ts';

describe('checkImageFile', () => {
  it('takes images up to 20 MB; refuses other types and bigger files with the server texts', () => {
    expect(checkImageFile(testFile('a.png', 'image/png'))).toBeNull();
    expect(checkImageFile(testFile('a.jpg', 'image/jpeg', MAX_IMAGE_BYTES))).toBeNull();
    expect(checkImageFile(testFile('a.jpg', 'image/jpeg', MAX_IMAGE_BYTES + 1))).toBe(IMAGE_MSG.tooLarge);
    expect(checkImageFile(testFile('a.pdf', 'application/pdf'))).toBe(IMAGE_MSG.notAnImage);
    // A type the browser could not name: judged by the name here, by the bytes on the server.
    expect(checkImageFile(testFile('photo.avif', ''))).toBeNull();
    expect(checkImageFile(testFile('notes', ''))).toBe(IMAGE_MSG.notAnImage);
  });
});

describe('uploadImage', () => {
  const image = storedImage('0a0b');

  it('posts the file as multipart field "file" with the anti-forgery header and resolves with the stored image; reports progress', async () => {
    document.cookie = 'XSRF-TOKEN=t1; path=/';
    const { sent } = mockApi({
      'POST /api/images/': (call) => {
        call.progress?.(5, 10);
        return { status: 201, body: { image } };
      },
    });
    const seen: Array<number | null> = [];
    const stored = await uploadImage(testFile('a.png', 'image/png'), { onProgress: ({ loaded, total }) => seen.push(total && loaded / total) });
    expect(stored).toEqual(image);
    expect(seen).toEqual([0.5]);
    const [call] = sent('POST', '/api/images/');
    expect(call?.headers['X-XSRF-TOKEN']).toBe('t1');
    expect(call?.headers['Content-Type']).toBeUndefined(); // the browser writes the multipart boundary
    expect(((call?.body as FormData).get('file') as File).name).toBe('a.png');
  });

  it("rejects with the server's message; a bare 413 gets the size message", async () => {
    mockApi({ 'POST /api/images/': { status: 400, body: errorBody(IMAGE_MSG.notAnImage) } });
    const refused = (await uploadImage(testFile('a.png', 'image/png')).catch((e: unknown) => e)) as ApiError;
    expect([refused.status, refused.message]).toEqual([400, IMAGE_MSG.notAnImage]);
    mockApi({ 'POST /api/images/': { status: 413 } });
    const tooBig = (await uploadImage(testFile('a.png', 'image/png')).catch((e: unknown) => e)) as ApiError;
    expect([tooBig.status, tooBig.message]).toEqual([413, IMAGE_MSG.tooLarge]);
  });

  it('refreshes a refused anti-forgery token once and sends again', async () => {
    let tries = 0;
    const { sent } = mockApi({
      'GET /api/auth/': { body: { user: null } },
      'POST /api/images/': () => (++tries === 1 ? { status: 403, body: errorBody(MSG.badCsrf) } : { status: 201, body: { image } }),
    });
    expect(await uploadImage(testFile('a.png', 'image/png'))).toEqual(image);
    expect(sent('POST', '/api/images/')).toHaveLength(2);
    expect(sent('GET', '/api/auth/')).toHaveLength(1);
  });

  it('no answer is status 0; an abort is an AbortError', async () => {
    mockApi({
      'POST /api/images/': () => {
        throw new Error('connection reset');
      },
    });
    const lost = (await uploadImage(testFile('a.png', 'image/png')).catch((e: unknown) => e)) as ApiError;
    expect(lost.status).toBe(0);

    mockApi({ 'POST /api/images/': () => new Promise(() => undefined) });
    const controller = new AbortController();
    const pending = uploadImage(testFile('a.png', 'image/png'), { signal: controller.signal }).catch((e: unknown) => e);
    controller.abort();
    expect(isAbort(await pending)).toBe(true);
  });
});
