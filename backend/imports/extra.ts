import { z } from 'zod';
import { ExportedBoard, ExportedComment } from '../../contract/pinboard-export.ts';

/** What an import keeps of a Pinboard export besides its pins (imports.extra): applied once the pins exist. */
export const ImportExtra = z.object({
  boards: z.array(ExportedBoard),
  favorites: z.array(z.string()),
  comments: z.array(ExportedComment),
});
export type ImportExtra = z.infer<typeof ImportExtra>;
