/**
 * What instances tell each other through the Socket.IO adapter (`io.serverSideEmit`), besides the
 * room broadcasts: which cached reads and sessions are no longer true. With the Redis adapter these
 * travel on the same connection as the broadcasts and ahead of them, so an instance has dropped a
 * stale answer before its clients see the event that made it stale.
 */
export interface InterServerEvents {
  'cache:invalidate': (tags: string[]) => void;
  /** Acknowledged, so the instance that ended a session answers only once the others forgot it. */
  'session:forget': (sessionId: string, forgotten: (ok: true) => void) => void;
  /** A personal access token was revoked (its secret's sha256); acknowledged like `session:forget`. */
  'token:forget': (secretHash: string, forgotten: (ok: true) => void) => void;
  /** A member left a board (`userId`), or the board is gone (null): drop their presence there. */
  'presence:evict': (boardId: number, userId: number | null) => void;
}
