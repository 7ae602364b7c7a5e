// The share target when no service worker answered it (a first visit, or the worker not active
// yet): the shared title, text and URL go on to the pin builder with a 303, as the worker's answer
// does (docs/installable-app.md). A shared file cannot be kept here: it is read past and dropped,
// and the builder says so. Nothing is stored or changed, so the POST needs no anti-forgery check:
// another site posting here only opens the builder, as a link to /pin-builder?url= already can.
import busboy from 'busboy';
import type { Request, RequestHandler } from 'express';
import { builderAddress, SHARE_FIELDS, SHARED_FILE_LOST, type SharedFields } from '../../contract/share-target.ts';

/** What is read of a share: the three text fields and whether a named file came with them. */
function readShare(req: Request): Promise<{ fields: SharedFields; hadFile: boolean }> {
  return new Promise((resolve) => {
    const fields: SharedFields = {};
    let hadFile = false;
    let parser: busboy.Busboy;
    try {
      // Each field bounded as a share's text is; a file's bytes are only read past.
      parser = busboy({ headers: req.headers, limits: { fields: 10, fieldSize: 8192, files: 1, parts: 11, fieldNameSize: 100, headerPairs: 100 } });
    } catch {
      resolve({ fields, hadFile });
      return;
    }
    parser.on('field', (name, value) => {
      const field = SHARE_FIELDS.find((known) => known === name);
      if (field) fields[field] = value;
    });
    parser.on('file', (_name, stream, info) => {
      hadFile ||= Boolean(info.filename);
      stream.resume();
    });
    parser.on('close', () => resolve({ fields, hadFile }));
    parser.on('error', () => resolve({ fields, hadFile }));
    req.pipe(parser);
  });
}

export const shareTargetFallback: RequestHandler = async (req, res) => {
  const { fields, hadFile } = await readShare(req);
  res.set('Cache-Control', 'no-store').redirect(303, builderAddress(fields, hadFile ? SHARED_FILE_LOST : null));
};
