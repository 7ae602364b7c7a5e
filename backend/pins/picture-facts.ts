import { write, type WriteContext } from '../changes/write.ts';
import { pinAudience } from '../visibility/pin-access.ts';
import { getPin } from './pins.service.ts';

/** The most pins told at once of one picture's news; a picture is rarely pinned more often. */
const MOST_PINS_TOLD = 200;

/**
 * A picture's colours or text were found after its pins were answered (docs/images.md "What is
 * seen in a picture"): its pins already carry them (the images row's trigger copied them), and
 * each is told as updated to whoever may see it, so open tabs show the text and colours at once.
 */
export async function tellPinsOfPicture(ctx: WriteContext, sha256: string): Promise<void> {
  await write(ctx, async (db, record) => {
    const pins = await db.selectFrom('pins').select('id').where('image_sha256', '=', sha256).orderBy('id', 'desc').limit(MOST_PINS_TOLD).execute();
    for (const { id } of pins) record('pin:updated', { pin: await getPin(db, id) }, await pinAudience(db, id, 'feed'));
  });
}
