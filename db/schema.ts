import type { ColumnType, Generated, Selectable } from 'kysely';

// Kysely's view of the tables created by db/migrations. Timestamps are `timestamptz`, read as Date.
type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

export interface UsersTable {
  id: Generated<number>;
  email: string;
  username: string;
  /** The username's confusable skeleton (backend/auth/usernames.ts); unique, so look-alikes are refused. */
  username_skeleton: string;
  first_name: string | null;
  password_hash: string;
  created_at: CreatedAt;
  /** The user's public pins (what a profile shows everyone), kept by a trigger in the writing transaction. */
  pin_count: Generated<number>;
  /** The user's private pins, likewise (their owner's count is both). */
  private_pin_count: Generated<number>;
  /** When an operator disabled the account (docs/site-access.md); null while it may sign in. */
  disabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface PinsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  image_url: string;
  description: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Bumped under the pin's row lock by each settled change of its likes; orders `pin:likes` events (docs/data-model.md). */
  likes_version: Generated<number>;
  /** The pin's favorites folded so far: the count is this plus its pin_like_deltas (docs/data-model.md, "Hot counters are deltas"). */
  likes_count: Generated<number>;
  /** The stored image (docs/images.md); null until a remote image is imported. */
  image_sha256: ColumnType<string | null, string | null | undefined, string | null>;
  /** The page the image was saved from (docs/tokens-and-capture.md), normalised; null when none. */
  source_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** The description's #tags (contract/tags.ts parseTags), written with it. */
  tags: ColumnType<string[], string[] | undefined, string[]>;
  /** Generated from title, description and tags (db/migrations/20261127_0012): read only. */
  search: ColumnType<string, never, never>;
  /** The image address the SSRF guard refused (image_url is then empty): its owner's, never served. */
  refused_image_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** Why the import of the image gave up for good (contract/image-repair.ts), for its owner; null otherwise. */
  image_failure: ColumnType<string | null, string | null | undefined, string | null>;
  /** Who sees it (docs/who-sees-what.md): everyone, or its owner and its boards' members. */
  visibility: ColumnType<PinVisibility, PinVisibility | undefined, PinVisibility>;
  /** Public by its owner's choice but private until it has a picture (docs/who-sees-what.md). */
  waits_for_picture: ColumnType<boolean, boolean | undefined, boolean>;
  /** What its owner says the picture shows (≤ 500 characters); null when unsaid. */
  alt_text: ColumnType<string | null, string | null | undefined, string | null>;
  /** Its image's recognised text, copied by a trigger (db/migrations/20261129_0029): read only. */
  image_text: ColumnType<string | null, never, never>;
  /** Its image's named colours, copied by a trigger (db/migrations/20261129_0029): read only. */
  colors: ColumnType<string[], never, never>;
}

type PinVisibility = 'public' | 'private';

/** A stored image: its files (original and thumbnails) are in storage under keys made from sha256. */
export interface ImagesTable {
  sha256: string;
  format: ImageFormat;
  bytes: number;
  width: number;
  height: number;
  /** A thumbhash, base64. */
  placeholder: string;
  created_at: CreatedAt;
  /** Since when no pin uses it (null while one does): the sweep's candidates (backend/images/sweep.ts). */
  unreferenced_since: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The sha256 of the bytes as received (sha256 is that of the stored file); null for rows stored before it existed. */
  source_sha256: ColumnType<string | null, string | null | undefined, string | null>;
  /** False while a file stored before metadata was removed still carries it (images.strip-metadata rewrites it). */
  metadata_stripped: ColumnType<boolean, boolean | undefined, boolean>;
  /** 64-bit perceptual hash of the picture flattened on white, as a signed bigint (pg returns it as a string); null until seen. */
  phash: ColumnType<string | null, string | bigint | null | undefined, string | bigint | null>;
  /** The same of its mirror image. */
  phash_mirror: ColumnType<string | null, string | bigint | null | undefined, string | bigint | null>;
  /** ≤ 5 colours, largest share first. */
  palette: ColumnType<ImagePaletteEntry[], string | undefined, string>;
  /** Named colours (contract/colors.ts). */
  colors: ColumnType<string[], string[] | undefined, string[]>;
  /** Text recognised with confidence (≤ 2,000 characters); null when none. */
  text: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the hashes and colours were found; null until then (the backfill's candidates). */
  seen_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** When its text was read (OCR, whatever it found); null until then. */
  text_read_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface ImagePaletteEntry {
  hex: string;
  share: number;
}

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';

export interface BoardsTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** The board's entries, kept by a trigger in the writing transaction. */
  pin_count: Generated<number>;
  /** Its public pins' entries (what an outsider reading a public board is shown), likewise. */
  public_pin_count: Generated<number>;
  /** 'public': listed on its owner's profile and readable by anyone (docs/board-sharing.md). */
  visibility: ColumnType<'private' | 'public', 'private' | 'public' | undefined, 'private' | 'public'>;
}

export interface BoardPinsTable {
  /** Increases with every entry: a board's pins page by it, most recently added first. */
  id: Generated<number>;
  board_id: number;
  pin_id: number;
  added_at: CreatedAt;
}

export interface FavoritesTable {
  id: Generated<number>;
  user_id: number;
  pin_id: number;
  created_at: CreatedAt;
}

export interface CommentsTable {
  id: Generated<number>;
  user_id: number;
  pin_id: number;
  text: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** One remembered answer to a create sent with an `Idempotency-Key` (backend/idempotency/). */
export interface IdempotencyKeysTable {
  user_id: number;
  key: string;
  request_hash: string;
  status_code: number;
  /** A `json` column: written as JSON text, read back parsed. */
  response: ColumnType<unknown, string, string>;
  created_at: ColumnType<Date, Date | undefined, Date>;
}

/** A collaborator of a board (the owner is `boards.user_id`, not a row here). */
export interface BoardMembersTable {
  board_id: number;
  user_id: number;
  added_at: CreatedAt;
  /** Who added them (db/migrations/20261127_0010); null for members from before, or a deleted adder. */
  added_by: ColumnType<number | null, number | null | undefined, never>;
}

/** `user_id` blocked `blocked_id` from adding them to boards (db/migrations/20261127_0010). */
export interface UserBlocksTable {
  id: Generated<number>;
  user_id: number;
  blocked_id: number;
  created_at: CreatedAt;
}

/** The change log's single counter row (db/migrations/20261126_0008): taken under its row lock. */
/** One row: where pruning stopped (the log's positions need no counter: docs/change-log.md). */
export interface ChangeCounterTable {
  id: ColumnType<boolean, never, never>;
  /** `bigint`: read as a string by pg. */
  pruned_through: ColumnType<string, never, string | number>;
}

/** One committed change, as its socket event carried it (without `seq`). */
export interface ChangesTable {
  /** `bigint`: read as a string by pg. */
  seq: ColumnType<string, string | number, never>;
  event: string;
  /** A `jsonb` column: written as JSON text, read back parsed. */
  data: ColumnType<unknown, string, never>;
  public: boolean;
  user_ids: ColumnType<number[], number[] | undefined, never>;
  created_at: CreatedAt;
  /** The pin whose text the row carries (its own rows and its comments'), for redaction (db/migrations/20261127_0015). */
  pin_id: ColumnType<number | null, number | null | undefined, never>;
  /** The comment whose text the row carries. */
  comment_id: ColumnType<number | null, number | null | undefined, never>;
}

/** A personal access token (backend/tokens/): only the sha256 of its secret is kept. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  scope: 'read' | 'write';
  /** sha256 of the secret, hex. */
  secret_hash: string;
  created_at: CreatedAt;
  expires_at: Date | null;
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** A tag in use, with its pins counted by a trigger on pin_tags (no count(*) on read): folded so far, plus its tag_count_deltas. */
export interface TagsTable {
  tag: string;
  pin_count: ColumnType<number, never, never>;
}

/** One tag of one pin, kept from `pins.tags` by a trigger in the writing transaction. */
export interface PinTagsTable {
  tag: ColumnType<string, never, never>;
  pin_id: ColumnType<number, never, never>;
}

/** Every word of a title or description (lower-cased, unstemmed): the typo matcher's vocabulary. */
export interface SearchWordsTable {
  word: ColumnType<string, never, never>;
}

/** A bulk import (docs/import-export.md). */
export interface ImportsTable {
  id: Generated<number>;
  user_id: number;
  kind: 'netscape' | 'pinboard' | 'images';
  status: ColumnType<ImportStatusValue, ImportStatusValue | undefined, ImportStatusValue>;
  total: Generated<number>;
  done: Generated<number>;
  failed: Generated<number>;
  created_at: CreatedAt;
  started_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  finished_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  progress_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The folder of a ZIP kept whole (`archive.zip`) until its items are done; null for a bookmark file and once done. */
  files_dir: ColumnType<string | null, string | null | undefined, string | null>;
  /** What the import holds on disk (its archive), counted against its owner's allowance. `bigint`: read as a string by pg. */
  archive_bytes: ColumnType<string, number | undefined, number>;
  /** A `jsonb` column: written as JSON text, read back parsed. */
  extra: ColumnType<unknown, string | null | undefined, string | null>;
}

type ImportStatusValue = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** One item of an import: a pin to make. */
export interface ImportItemsTable {
  import_id: number;
  position: number;
  state: ColumnType<'pending' | 'done' | 'failed', 'pending' | 'done' | 'failed' | undefined, 'pending' | 'done' | 'failed'>;
  /** A `jsonb` column: written as JSON text, read back parsed (backend/imports/items.ts). */
  data: ColumnType<unknown, string, string>;
  reason: ColumnType<string | null, string | null | undefined, string | null>;
  attempts: Generated<number>;
  not_before: ColumnType<Date | null, Date | null | undefined, Date | null>;
  pin_id: ColumnType<number | null, number | null | undefined, number | null>;
}

/** A pin an import made, by its item's identity in the file. */
export interface ImportedPinsTable {
  user_id: number;
  item_key: string;
  pin_id: number;
  import_id: number | null;
  pin_updated_at: Date;
}

/** A board an import made. */
export interface ImportBoardsTable {
  import_id: number;
  board_id: number;
  board_updated_at: Date;
}

export interface DB {
  users: UsersTable;
  pins: PinsTable;
  images: ImagesTable;
  boards: BoardsTable;
  board_pins: BoardPinsTable;
  favorites: FavoritesTable;
  comments: CommentsTable;
  idempotency_keys: IdempotencyKeysTable;
  board_members: BoardMembersTable;
  user_blocks: UserBlocksTable;
  change_counter: ChangeCounterTable;
  changes: ChangesTable;
  api_tokens: ApiTokensTable;
  tags: TagsTable;
  pin_tags: PinTagsTable;
  search_words: SearchWordsTable;
  imports: ImportsTable;
  import_items: ImportItemsTable;
  imported_pins: ImportedPinsTable;
  import_boards: ImportBoardsTable;
  board_links: BoardLinksTable;
  invites: InvitesTable;
  password_resets: PasswordResetsTable;
  pin_merges: PinMergesTable;
  pin_like_deltas: PinLikeDeltasTable;
  tag_count_deltas: TagCountDeltasTable;
}

/** A change of a pin's likes_count not yet folded into it (written by the favorites trigger only). */
export interface PinLikeDeltasTable {
  id: ColumnType<string, never, never>;
  pin_id: ColumnType<number, never, never>;
  delta: ColumnType<number, never, never>;
}

/** A change of a tag's pin_count not yet folded into it (written by the pin_tags trigger only). */
export interface TagCountDeltasTable {
  id: ColumnType<string, never, never>;
  tag: ColumnType<string, never, never>;
  delta: ColumnType<number, never, never>;
}

/** A secret read-only link to a board (backend/boards/board-links.service.ts): only its secret's sha256 is kept. */
export interface BoardLinksTable {
  id: Generated<number>;
  board_id: number;
  /** sha256 of the secret, hex. */
  secret_hash: string;
  /** The secret's last 4 characters, to tell links apart. */
  hint: string;
  created_at: CreatedAt;
}

export type UserRow = Selectable<UsersTable>;

/** A password reset link (docs/accounts.md): only the SHA-256 of its token is kept. */
export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  created_at: CreatedAt;
  expires_at: Date;
}

/** An invite link (docs/site-access.md): `uses` sign-ups allowed, `used` made so far. */
export interface InvitesTable {
  id: Generated<number>;
  code: string;
  /** Its maker; null when the operator command made it. */
  created_by: number | null;
  uses: number;
  used: Generated<number>;
  expires_at: Date;
  created_at: CreatedAt;
}

/** A merge of duplicate pins that may still be undone (docs/duplicates.md). */
export interface PinMergesTable {
  id: Generated<number>;
  user_id: number;
  kept_pin_id: number;
  /** What the undo restores (backend/duplicates/merge.ts `MergeSnapshot`). */
  snapshot: ColumnType<unknown, string, never>;
  created_at: CreatedAt;
}
