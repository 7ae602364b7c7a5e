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
}

export interface PinsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  image_url: string;
  description: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Bumped by every favorite added or removed; orders `pin:likes` events. */
  likes_version: Generated<number>;
  /** The pin's favorites, kept by a trigger in the writing transaction. */
  likes_count: Generated<number>;
  /** The stored image (DESIGN §10); null until a remote image is imported. */
  image_sha256: ColumnType<string | null, string | null | undefined, string | null>;
}

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

export interface DB {
  users: UsersTable;
  pins: PinsTable;
  images: ImagesTable;
  boards: BoardsTable;
  board_pins: BoardPinsTable;
  favorites: FavoritesTable;
  comments: CommentsTable;
  idempotency_keys: IdempotencyKeysTable;
}

export type UserRow = Selectable<UsersTable>;
