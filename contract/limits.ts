// Length limits and sizes shared by the server's validation and the client's forms.
export const LIMITS = {
  title: 200,
  description: 2000,
  /** What a pin's owner says its picture shows (docs/images.md). */
  altText: 500,
  /** The most of a picture's recognised text that is kept. */
  imageText: 2000,
  boardName: 100,
  comment: 1000,
  imageUrl: 2048,
  email: 254,
  usernameMin: 3,
  usernameMax: 40,
  passwordMin: 8,
  // argon2 hashes whatever it gets; cap the input so a huge password cannot burn CPU.
  passwordMax: 256,
  firstName: 60,
  // Largest id Postgres' `integer` column can hold.
  maxId: 2_147_483_647,
  // Most pin ids one `pins:watch` message may carry.
  watchIds: 500,
  // Most pins one socket may watch in all: a screen never shows more, and each watched pin is a
  // room the server keeps in memory.
  watchedPinsPerSocket: 1000,
  // Items per page of a list call: the default and the most a client may ask for.
  pageDefault: 50,
  pageMax: 100,
  // Longest cursor string accepted (the server's own are far shorter).
  cursorMax: 512,
  // Cover pins a board carries in the boards list.
  boardCovers: 4,
  // Collaborators one board may have besides its owner.
  boardCollaborators: 50,
  // Members (owner first) a board carries for avatars; `member_count` has them all.
  boardMemberAvatars: 5,
  // Users one user may block from adding them to boards.
  blocksPerUser: 1000,
  // Users GET /api/users/?q= answers at most.
  userSearchResults: 10,
  // Largest JSON body the API accepts.
  bodyBytes: 64 * 1024,
  // An Idempotency-Key header: 1 to this many visible ASCII characters.
  idempotencyKeyMax: 255,
  // How long the first answer to a create sent with an Idempotency-Key is replayed.
  idempotencyKeyHours: 24,
} as const;

// What an upload may be (docs/images.md); the server refuses anything else, the client can check first.
export const IMAGE_LIMITS = {
  /** Largest file accepted, in bytes (20 MiB). */
  maxBytes: 20 * 1024 * 1024,
  /**
   * Most pixels (width × height of the first frame) an image may have, judged from its header
   * before anything is decoded: a decompression bomb is refused. 50 MP holds the largest phone
   * photos (8160 × 6120 = 49.9 MP) and halves the worst decode the old 100 MP allowed.
   */
  maxPixels: 50_000_000,
  /** Longest side in pixels (a 16,384 × 3,051 panorama is 50 MP); past it rows cost more than pixels. */
  maxSide: 16_384,
  /** Long side ÷ short side at most: a 1 × 99,000,000 line is refused from its header. */
  maxAspect: 20,
  /** The multipart form field POST /api/images/ reads the file from. */
  uploadField: 'file',
  /** The types recognised (by their bytes, never their name): for an `accept` attribute. */
  types: ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'],
} as const;
