import { Readable } from 'node:stream';
import type { Response } from 'express';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import yazl from 'yazl';
import { EXPORT_FILES } from '../../contract/import-rules.ts';
import type { DB } from '../../db/schema.ts';
import { mediaKey } from '../images/media-urls.ts';
import type { MediaStorage } from '../images/storage.ts';
import { bookmarksHtml, pinboardJson, pinsCsv } from './export-files.ts';
import { imagePath, imagesOf } from './export-reader.ts';

// GET /api/export (docs/import-export.md): a ZIP written straight into the response by yazl, entry
// after entry, each read when its turn comes: the text files from generators that read a page of
// rows at a time, each stored original from storage as a stream opened only then. No copy of the
// archive exists anywhere, in memory or on disk; what is held is one page of rows, one chunk of a
// file, and yazl's list of entries (a few hundred bytes each) for its central directory.

const toBuffers = (chunks: AsyncGenerator<string>) =>
  Readable.from(
    (async function* () {
      for await (const chunk of chunks) yield Buffer.from(chunk, 'utf8');
    })(),
  );

/** yazl does not listen for its inputs' errors: each input's failure ends the download here. */
function guarded<S extends NodeJS.ReadableStream>(stream: S, fail: (error: unknown) => void): S {
  stream.on('error', fail);
  return stream;
}

export interface ExportDeps {
  db: Kysely<DB>;
  storage: MediaStorage;
  logger: Logger;
}

export async function streamExport(deps: ExportDeps, user: { id: number; username: string; email: string }, origin: string, res: Response): Promise<void> {
  const zip = new yazl.ZipFile();
  const mtime = new Date();
  const stamp = mtime.toISOString().slice(0, 10);
  res.status(200);
  res.setHeader('Content-Type', 'application/zip');
  res.setHeader('Content-Disposition', `attachment; filename="pinboard-${user.username.replace(/[^A-Za-z0-9_-]/g, '_')}-${stamp}.zip"`);
  // Cache-Control: the route's, as for every answer of a signed-in call (PRIVATE_ANSWER, route.ts).
  const done = new Promise<void>((resolve) => {
    res.once('close', () => resolve());
    res.once('finish', () => resolve());
  });
  const fail = (error: unknown) => {
    // Past the headers nothing can be said in the error shape: the download is cut short instead.
    if (res.destroyed) return;
    deps.logger.error({ err: error }, 'export failed part-way');
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  };
  zip.on('error', fail);
  zip.outputStream.pipe(res);
  zip.addReadStream(guarded(toBuffers(pinboardJson(deps.db, user)), fail), EXPORT_FILES.json, { mtime });
  zip.addReadStream(guarded(toBuffers(bookmarksHtml(deps.db, user.id, origin)), fail), EXPORT_FILES.bookmarks, { mtime });
  zip.addReadStream(guarded(toBuffers(pinsCsv(deps.db, user.id)), fail), EXPORT_FILES.csv, { mtime });
  for await (const page of imagesOf(deps.db, user.id)) {
    if (res.destroyed) break;
    for (const image of page) {
      // Images are compressed already: stored as they are.
      zip.addReadStreamLazy(imagePath(image.sha256, image.format), { mtime, compress: false }, (callback) => {
        deps.storage.get(mediaKey(image.sha256, { original: image.format })).then(
          (file) => {
            if (file) return callback(null, guarded(file.body, fail));
            deps.logger.warn({ sha256: image.sha256 }, 'export: a stored original is missing');
            callback(null, Readable.from([]));
          },
          (error: unknown) => callback(error, Readable.from([])),
        );
      });
    }
  }
  zip.end();
  await done;
}
