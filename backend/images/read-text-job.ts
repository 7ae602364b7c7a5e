import { buffer } from 'node:stream/consumers';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { DB } from '../../db/schema.ts';
import { mediaKey } from './media-urls.ts';
import type { MediaStorage } from './storage.ts';
import { readText, type TextReading, TextReadingTooSlow } from './seen/read-text.ts';

// The text in a stored image, read from its largest thumbnail (736 px wide, or the picture's own
// width when smaller: at 236 px a third of the words are lost) and written to its row; the row's
// trigger copies it to the pins that use the image (and so into search). A picture whose thumbnail
// is gone (the image swept meanwhile) is left alone; one read past its deadline is recorded as read
// without text (it would be as slow on every run).

/** The thumbnail read: the largest. */
const READ_WIDTH = 736;

export interface TextReadResult {
  /** Whether text was kept (a confident reading of ≥ 3 words). */
  found: boolean;
  ms: number;
}

/** Reads one image's text, unless it was read already (undefined when there was nothing to read). */
export async function readStoredText(deps: { db: Kysely<DB>; storage: MediaStorage; logger: Logger }, sha256: string): Promise<TextReadResult | undefined> {
  const row = await deps.db.selectFrom('images').select('text_read_at').where('sha256', '=', sha256).executeTakeFirst();
  if (!row || row.text_read_at) return undefined;
  const file = await deps.storage.get(mediaKey(sha256, { width: READ_WIDTH }));
  if (!file) return undefined;
  let reading: TextReading;
  try {
    reading = await readText(await buffer(file.body));
  } catch (error) {
    if (!(error instanceof TextReadingTooSlow)) throw error;
    deps.logger.warn({ sha256 }, 'text in a picture not read within its deadline: recorded as read, without text');
    reading = { text: null, confidence: 0, words: 0, ms: 0 };
  }
  await deps.db.updateTable('images').set({ text: reading.text, text_read_at: new Date() }).where('sha256', '=', sha256).where('text_read_at', 'is', null).execute();
  deps.logger.debug({ sha256, confidence: reading.confidence, words: reading.words, kept: reading.text !== null, ms: reading.ms }, 'text in a picture read');
  return { found: reading.text !== null, ms: reading.ms };
}
