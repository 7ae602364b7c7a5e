// The pins whose comment lists are on screen. A comment list is a collection of its own, so after
// a reconnect the resync fetches it again for each of these pins (./resync.ts). Several screens
// can show the same pin's comments at once (the pin page and a modal), hence the counts: a pin
// leaves the list when the last of them lets go.
interface CommentWatch {
  /** Counts one more screen showing `pinId`'s comments, until the returned function is called. */
  add(pinId: number): () => void;
  /** The pins shown, in the order they were first shown. */
  pins(): number[];
}

export function createCommentWatch(): CommentWatch {
  const counts = new Map<number, number>();
  return {
    add(pinId) {
      counts.set(pinId, (counts.get(pinId) ?? 0) + 1);
      return () => {
        const n = counts.get(pinId) ?? 0;
        if (n <= 1) counts.delete(pinId);
        else counts.set(pinId, n - 1);
      };
    },
    pins: () => [...counts.keys()],
  };
}
