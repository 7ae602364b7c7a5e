// React side of presence: a screen is present on a pin or board while it is mounted. Nothing is
// sent when no live client feeds the store (component tests).
import { useStore } from 'jotai';
import { useEffect } from 'react';
import { liveClientFor } from './client.ts';

/** Present on `{pinId}` or `{boardId}` while mounted (re-joined by the live client after each reconnect). */
export function usePresence(target: { pinId: number } | { boardId: number }): void {
  const client = liveClientFor(useStore());
  const pinId = 'pinId' in target ? target.pinId : undefined;
  const boardId = 'boardId' in target ? target.boardId : undefined;
  useEffect(() => {
    if (!client) return;
    if (pinId !== undefined) return client.joinPresence({ pinId });
    if (boardId !== undefined) return client.joinPresence({ boardId });
  }, [client, pinId, boardId]);
}
