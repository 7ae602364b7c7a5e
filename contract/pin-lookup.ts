import { z } from 'zod';
import { Pin } from './pins.ts';
import { sourceUrlField } from './source-url.ts';

/** Most pins GET /api/pins/lookup answers: enough for a "saved" badge, bounded for any page. */
export const PIN_LOOKUP_MAX = 50;

/** GET /api/pins/lookup?sourceUrl=: the asker's own pins saved from one page. */
export const PinLookupQuery = z.object({ sourceUrl: sourceUrlField });

export const PinLookup = z.object({ pins: z.array(Pin) }).meta({ id: 'PinLookup' });
export type PinLookup = z.infer<typeof PinLookup>;
