import { SESSION_FORGET_WAIT_MS } from '../realtime/cache-relay.ts';
import type { IO } from '../realtime/gateway.ts';
import type { TokenVerifier } from './token-verifier.ts';

/**
 * A token revoked on one instance is forgotten by every other before the revoke answers (they
 * acknowledge through the adapter; one that does not answer within the wait is covered by the
 * verifier's short TTL). Without peers (the in-memory adapter) there is nobody to tell.
 */
export function startTokenRelay(io: IO, verifier: TokenVerifier, peers: boolean): () => void {
  const fromPeer = (secretHash: unknown, forgotten: unknown) => {
    if (typeof secretHash === 'string' && /^[0-9a-f]{64}$/.test(secretHash)) verifier.forget(secretHash);
    if (typeof forgotten === 'function') (forgotten as (ok: true) => void)(true);
  };
  io.sockets.on('token:forget', fromPeer);
  verifier.onRevoke = (secretHash) =>
    new Promise<void>((resolve) => {
      if (!peers) return resolve();
      const gaveUp = setTimeout(resolve, SESSION_FORGET_WAIT_MS);
      io.serverSideEmit('token:forget', secretHash, () => {
        clearTimeout(gaveUp);
        resolve();
      });
    });
  return () => {
    io.sockets.off('token:forget', fromPeer);
    verifier.onRevoke = async () => {};
  };
}
