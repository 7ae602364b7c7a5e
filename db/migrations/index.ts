import type { Migration, MigrationProvider } from 'kysely';
import * as initial from './20261121_0001_initial.ts';
import * as idempotencyKeys from './20261121_0002_idempotency_keys.ts';
import * as pinLikesVersion from './20261121_0003_pin_likes_version.ts';
import * as usernameSkeleton from './20261123_0004_username_skeleton.ts';
import * as countsAndPaging from './20261123_0005_counts_and_paging.ts';
import * as favoriteFunctions from './20261124_0006_favorite_functions.ts';
import * as images from './20261125_0007_images.ts';
import * as changesAndMembers from './20261126_0008_changes_and_members.ts';
import * as imageReferences from './20261126_0009_image_references.ts';
import * as boardConsent from './20261127_0010_board_consent.ts';
import * as imagePrivacy from './20261127_0011_image_privacy.ts';
import * as search from './20261127_0012_search.ts';
import * as tokensAndSources from './20261127_0013_tokens_and_sources.ts';
import * as pinCountsAndImageFailures from './20261127_0014_pin_counts_and_image_failures.ts';
import * as changeRedaction from './20261127_0015_change_redaction.ts';
import * as imports from './20261127_0021_imports.ts';
import * as importArchives from './20261129_0022_import_archives.ts';
import * as pinVisibility from './20261129_0023_pin_visibility.ts';
import * as boardLinks from './20261129_0024_board_links.ts';
import * as siteAccess from './20261129_0025_site_access.ts';
import * as accounts from './20261129_0026_accounts.ts';
import * as statementCounts from './20261129_0027_statement_counts.ts';
import * as pinsWaitingForPicture from './20261129_0028_pins_waiting_for_picture.ts';
import * as picturesSeen from './20261129_0029_pictures_seen.ts';
import * as pinMerges from './20261129_0030_pin_merges.ts';
import * as counterDeltas from './20261129_0031_counter_deltas.ts';
import * as changePositions from './20261129_0033_change_positions.ts';

// Migrations are listed here explicitly (rather than read from the folder at run time) so that the
// same list works from source, in tests and in a bundled build. Names sort by timestamp.
const migrations: Record<string, Migration> = {
  '20261121_0001_initial': initial,
  '20261121_0002_idempotency_keys': idempotencyKeys,
  '20261121_0003_pin_likes_version': pinLikesVersion,
  '20261123_0004_username_skeleton': usernameSkeleton,
  '20261123_0005_counts_and_paging': countsAndPaging,
  '20261124_0006_favorite_functions': favoriteFunctions,
  '20261125_0007_images': images,
  '20261126_0008_changes_and_members': changesAndMembers,
  '20261126_0009_image_references': imageReferences,
  '20261127_0010_board_consent': boardConsent,
  '20261127_0011_image_privacy': imagePrivacy,
  '20261127_0012_search': search,
  '20261127_0013_tokens_and_sources': tokensAndSources,
  '20261127_0014_pin_counts_and_image_failures': pinCountsAndImageFailures,
  '20261127_0015_change_redaction': changeRedaction,
  '20261127_0021_imports': imports,
  '20261129_0022_import_archives': importArchives,
  '20261129_0023_pin_visibility': pinVisibility,
  '20261129_0024_board_links': boardLinks,
  '20261129_0025_site_access': siteAccess,
  '20261129_0026_accounts': accounts,
  '20261129_0027_statement_counts': statementCounts,
  '20261129_0028_pins_waiting_for_picture': pinsWaitingForPicture,
  '20261129_0029_pictures_seen': picturesSeen,
  '20261129_0030_pin_merges': pinMerges,
  '20261129_0031_counter_deltas': counterDeltas,
  '20261129_0033_change_positions': changePositions,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
