import { builderAddress, SHARE_FILE_FIELD, SHARED_FILE_LOST } from '../../contract/share-target.ts';
import { SHARED_FILE_CACHE, SHARED_FILE_NAME_HEADER, sharedFileKey } from './cache-names.ts';

const seeBuilder = (address: string) => Response.redirect(address, 303);

/**
 * Answers the share target's POST: a shared picture is kept in SHARED_FILE_CACHE (a new share
 * replaces the one before), then 303 to the pin builder, which uploads it. Nothing is sent to the
 * server here: the builder's upload is the user's ordinary, anti-forgery-checked call.
 */
export async function answerShare(request: Request): Promise<Response> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return seeBuilder(builderAddress({}, null));
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === 'string' ? value : undefined;
  };
  const fields = { title: text('title'), text: text('text'), url: text('url') };
  const file = form.get(SHARE_FILE_FIELD);
  // A form without a chosen file still sends the field, empty and nameless.
  if (!(file instanceof File) || (file.size === 0 && !file.name)) return seeBuilder(builderAddress(fields, null));
  const id = crypto.randomUUID();
  try {
    await caches.delete(SHARED_FILE_CACHE);
    const headers = { 'Content-Type': file.type || 'application/octet-stream', [SHARED_FILE_NAME_HEADER]: encodeURIComponent(file.name) };
    await (await caches.open(SHARED_FILE_CACHE)).put(sharedFileKey(id), new Response(file, { headers }));
  } catch {
    return seeBuilder(builderAddress(fields, SHARED_FILE_LOST));
  }
  return seeBuilder(builderAddress(fields, id));
}
