// A pin's alt text (docs/api.md "Alt text"): what its owner says the picture shows, set when the pin
// is made and on edit, removed with null or an empty text, left alone when absent, at most 500
// characters (400 naming the field), and carried by every answer that carries the pin.
import { describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import { LIMITS } from '../../contract/limits.ts';
import type { Pin, PinList } from '../../contract/pins.ts';
import { signUpUser } from '../support/factories.ts';
import { useTestServer } from '../support/use-test-server.ts';

const server = useTestServer();

describe('alt text', () => {
  test('set on create, shown on every read, edited, left alone when absent, cleared', async () => {
    const { client } = await signUpUser(server.url, 'alttext');
    const made = await client.post<Pin>('/api/pins/', { title: 'Harbour', imageUrl: 'https://a.test/harbour.png', altText: '  Three red boats moored at dusk  ' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.alt_text).toBe('Three red boats moored at dusk');
    expect((await client.get<Pin>(`/api/pins/${made.body.id}`)).body.alt_text).toBe('Three red boats moored at dusk');
    // Lists of pins carry it too.
    const profile = await client.get<PinList>(`/api/pins/?userId=${made.body.user_id}`);
    expect(profile.body.pins.find((pin) => pin.id === made.body.id)?.alt_text).toBe('Three red boats moored at dusk');

    const edited = await client.put<Pin>(`/api/pins/${made.body.id}`, { title: 'Harbour', altText: 'Two boats' });
    expect(edited.status).toBe(200);
    expect(edited.body.alt_text).toBe('Two boats');
    // An edit that does not mention it leaves it as it is.
    const retitled = await client.put<Pin>(`/api/pins/${made.body.id}`, { title: 'Harbour at dusk' });
    expect(retitled.body.title).toBe('Harbour at dusk');
    expect(retitled.body.alt_text).toBe('Two boats');
    expect((await client.put<Pin>(`/api/pins/${made.body.id}`, { visibility: 'private' })).body.alt_text).toBe('Two boats');
    // null removes it, and so does an empty (or blank) text.
    expect((await client.put<Pin>(`/api/pins/${made.body.id}`, { title: 'Harbour', altText: null })).body.alt_text).toBeNull();
    await client.put<Pin>(`/api/pins/${made.body.id}`, { title: 'Harbour', altText: 'Again' });
    expect((await client.put<Pin>(`/api/pins/${made.body.id}`, { title: 'Harbour', altText: '   ' })).body.alt_text).toBeNull();
    expect((await client.get<Pin>(`/api/pins/${made.body.id}`)).body.alt_text).toBeNull();
  });

  test('absent, null or empty on create is none', async () => {
    const { client } = await signUpUser(server.url, 'noalt');
    for (const altText of [undefined, null, '']) {
      const made = await client.post<Pin>('/api/pins/', { title: 'Plain', imageUrl: 'https://a.test/plain.png', ...(altText === undefined ? {} : { altText }) });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body.alt_text).toBeNull();
    }
  });

  test('too long, or not text, is 400 naming the field, and nothing changes', async () => {
    const { client } = await signUpUser(server.url, 'longalt');
    const tooLong = 'a'.repeat(LIMITS.altText + 1);
    const refused = await client.post<ErrorBody>('/api/pins/', { title: 'Long', imageUrl: 'https://a.test/long.png', altText: tooLong });
    expect(refused.status).toBe(400);
    expect(refused.body.fields.altText).toBe(`Alt text must be at most ${LIMITS.altText} characters.`);
    expect((await client.post<ErrorBody>('/api/pins/', { title: 'Odd', imageUrl: 'https://a.test/odd.png', altText: 42 })).body.fields.altText).toBe('Alt text must be text.');

    const made = await client.post<Pin>('/api/pins/', { title: 'Fits', imageUrl: 'https://a.test/fits.png', altText: 'b'.repeat(LIMITS.altText) });
    expect(made.body.alt_text).toHaveLength(LIMITS.altText);
    const edit = await client.put<ErrorBody>(`/api/pins/${made.body.id}`, { title: 'Fits', altText: tooLong });
    expect(edit.status).toBe(400);
    expect(edit.body.fields.altText).toBe(`Alt text must be at most ${LIMITS.altText} characters.`);
    expect((await client.get<Pin>(`/api/pins/${made.body.id}`)).body.alt_text).toBe('b'.repeat(LIMITS.altText));
  });

  test("only the pin's owner sets it", async () => {
    const owner = await signUpUser(server.url, 'altowner');
    const other = await signUpUser(server.url, 'altother');
    const made = await owner.client.post<Pin>('/api/pins/', { title: 'Mine', imageUrl: 'https://a.test/mine.png', altText: 'A cat' });
    expect((await other.client.put(`/api/pins/${made.body.id}`, { title: 'Mine', altText: 'A dog' })).status).toBe(403);
    expect((await owner.client.get<Pin>(`/api/pins/${made.body.id}`)).body.alt_text).toBe('A cat');
  });
});
