import { ENDPOINTS } from '../../contract/endpoints.ts';
import { ImportCreated } from '../../contract/imports.ts';
import { IMPORT_LIMITS, IMPORT_MSG } from '../../contract/import-rules.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { createImport } from './create-import.ts';
import { getImport, listImports, retryImport } from './imports.service.ts';
import { cancelImport } from './stop-import.ts';
import { undoImport } from './undo-import.ts';
import { looksLikeNetscape } from './netscape.ts';
import { looksLikeZip, refused } from './zip-archive.ts';

// Imports (docs/import-export.md): a bookmark file or a ZIP in, one pin per item, in the background.

export const importRoutes: ApiRoute[] = [
  route(ENDPOINTS['POST /api/imports'], {
    summary:
      'Import a Netscape bookmark file (Pinback, browsers, Shaarli…), a Pinboard export or a ZIP of images (multipart/form-data, the file in "file"); recognised by its bytes, read at once, imported in the background',
    auth: 'user',
    upload: {
      field: IMPORT_LIMITS.field,
      maxBytes: IMPORT_LIMITS.maxBytes,
      tooLarge: IMPORT_MSG.tooLarge,
      missing: IMPORT_MSG.missing,
      types: ['text/html', 'application/zip'],
      description: 'A bookmark file (HTML) or a ZIP, at most 200 MB. A ZIP may hold at most 10,000 entries and 2 GB inflated, no entry path leaving its folder and no entry inflating more than 100:1.',
      // The first bytes say whether it is a file we import at all: anything else is refused before the rest is read.
      // 200 MB over a slow line takes a while: 15 minutes, not an image's minute.
      notAnImage: { timeoutMs: 15 * 60_000 },
      sniff: async (head: Buffer) => (looksLikeZip(head) || looksLikeNetscape(head.toString('utf8')) ? undefined : refused(IMPORT_MSG.notRecognised)),
    },
    errors: [429],
    handler: async ({ ctx, res, file, userId, bulkImports }) => {
      const created = await createImport(ctx, bulkImports, userId, file.path);
      res.status(202).json({ import: created } satisfies ImportCreated);
    },
  }),
  route(ENDPOINTS['GET /api/imports'], {
    summary: "The caller's imports, newest first",
    auth: 'user',
    handler: async ({ ctx, cursors, res, query, userId }) => {
      res.json(await listImports(ctx.db, cursors, userId, query));
    },
  }),
  route(ENDPOINTS['GET /api/imports/{id}'], {
    summary: "One of the caller's imports, with its failures (at most 1,000, in file order)",
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, res, params, userId }) => {
      res.json(await getImport(ctx.db, userId, params.id));
    },
  }),
  route(ENDPOINTS['POST /api/imports/{id}/retry'], {
    summary: 'Try the failed items of a finished import again',
    auth: 'user',
    errors: [404, 409],
    handler: async ({ ctx, res, params, userId }) => {
      res.json(await retryImport(ctx, userId, params.id));
    },
  }),
  route(ENDPOINTS['POST /api/imports/{id}/cancel'], {
    summary: 'Stop a queued or running import, keeping the pins it made so far (status cancelled)',
    auth: 'user',
    errors: [404, 409],
    handler: async ({ ctx, res, params, userId }) => {
      res.json(await cancelImport(ctx, userId, params.id));
    },
  }),
  route(ENDPOINTS['DELETE /api/imports/{id}'], {
    summary: 'Undo an import (the pins and boards it made that were not changed since), stopping it first if it is queued or running',
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, res, params, userId }) => {
      res.json(await undoImport(ctx, userId, params.id));
    },
  }),
];
