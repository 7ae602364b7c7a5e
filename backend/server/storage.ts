import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { makeDataFoldersPrivate } from '../data-folders.ts';
import { createMediaStorage } from '../images/create-storage.ts';
import type { MediaStorage } from '../images/storage.ts';

/**
 * Start-up's first part: the data folders made private before anything writes there
 * (backend/data-folders.ts), then the image storage, so an unwritable media folder stops start-up
 * before anything else is opened. Nothing to close.
 */
export async function openStorage(config: Config, logger: Logger): Promise<MediaStorage> {
  makeDataFoldersPrivate(config);
  const media = await createMediaStorage(config.media);
  logger.info({ media: media.description }, 'image storage');
  return media;
}
