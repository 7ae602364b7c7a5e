import { ENDPOINTS } from '../../contract/endpoints.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { takeExportSlot } from './export-slots.ts';
import { streamExport } from './export-zip.ts';

/** The origin the export's bookmark file names pins and images under: the public one when configured, else the request's. */
function originOf(req: { protocol: string; get(name: string): string | undefined }, publicOrigins: readonly string[]): string {
  return publicOrigins[0] ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

export const exportRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/export'], {
    summary:
      "Download everything of the caller's as a ZIP: pinboard.json, the stored originals under images/, bookmarks.html and pins.csv (docs/import-export.md); one at a time per user (429 while one streams)",
    auth: 'user',
    handler: async ({ ctx, media, req, res, userId, originPolicy }) => {
      const release = takeExportSlot(ctx, userId);
      // Given back when the answer ends: sent to its end ('finish'), or cut short ('close': the
      // client went away, or a failure part-way destroyed the download).
      res.once('finish', release);
      res.once('close', release);
      const user = await ctx.db.selectFrom('users').select(['id', 'username', 'email']).where('id', '=', userId).executeTakeFirstOrThrow();
      await streamExport({ db: ctx.db, storage: media, logger: req.log }, user, originOf(req, originPolicy.publicOrigins), res);
    },
  }),
];
