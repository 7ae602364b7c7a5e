// Editing a pin's image address is held to the same rule as creating one (backend/pins/pins.routes.ts):
// without PUBLIC_ORIGIN the site does not know every name it is reached under, so no address whose
// path would reach its API or socket is taken, whatever host it names (contract/urls.ts).
import { describe, expect, test } from 'vitest';
import type { ErrorBody } from '../../contract/errors.ts';
import { MSG } from '../../contract/messages.ts';
import type { Pin } from '../../contract/pins.ts';
import { newPin, signUpUser } from '../support/factories.ts';
import { useTestServer, withTestServer } from '../support/use-test-server.ts';

const server = useTestServer();

/** Addresses that reach this site's API or socket under a host it may not know it has. */
const ACTING = ['https://other.test/api/auth/logout', 'https://other.test/API/auth/logout', 'https://other.test//%61pi/auth/logout', 'http://other.test/socket.io/?EIO=4'];

describe('PUT /api/pins/{id} without PUBLIC_ORIGIN', () => {
  test('refuses an image address that would reach the API under another host name, as create does', async () => {
    const { client } = await signUpUser(server.url);
    const pin = await newPin(client, { title: 'Mine', imageUrl: 'https://a.test/x.png' });
    for (const imageUrl of ACTING) {
      const created = await client.post<ErrorBody>('/api/pins/', { title: 'Acting image', imageUrl });
      expect(created.status, `create ${imageUrl}`).toBe(400);
      const edited = await client.put<ErrorBody>(`/api/pins/${pin.id}`, { title: 'Mine', description: '', imageUrl });
      expect(edited.status, `edit ${imageUrl}`).toBe(400);
      expect(edited.body.fields.imageUrl, imageUrl).toBe(MSG.imageUrlInvalid);
    }
    // The pin still shows the image it had.
    expect((await client.get<Pin>(`/api/pins/${pin.id}`)).body.image_url).toBe('https://a.test/x.png');
    // Another site's image whose path merely mentions "api" is fine.
    const ok = await client.put<Pin>(`/api/pins/${pin.id}`, { title: 'Mine', description: '', imageUrl: 'https://other.test/images/api.png' });
    expect(ok.status).toBe(200);
    expect(ok.body.image_url).toBe('https://other.test/images/api.png');
  });

  test('with PUBLIC_ORIGIN, other sites are judged as other sites on edit too', async () => {
    await withTestServer({ env: { PUBLIC_ORIGIN: 'https://pins.example' } }, async (named) => {
      const { client } = await signUpUser(named.url);
      const pin = await newPin(client);
      expect((await client.put(`/api/pins/${pin.id}`, { title: 'Pin', description: '', imageUrl: 'https://other.test/api/auth/logout' })).status).toBe(200);
      expect((await client.put(`/api/pins/${pin.id}`, { title: 'Pin', description: '', imageUrl: 'https://pins.example/api/auth/logout' })).status).toBe(400);
    });
  });
});
