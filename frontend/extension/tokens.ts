// The two token calls the Connect page makes (docs/tokens-and-capture.md): a write token for the
// extension, and its revocation when the extension did not take it.
import type { TokenCreated } from '../../contract/tokens.ts';
import { api } from '../api/client.ts';

export function createWriteToken(name: string): Promise<TokenCreated> {
  return api<TokenCreated>('POST', '/api/tokens', { name, scope: 'write' });
}

export function revokeToken(id: number): Promise<unknown> {
  return api('DELETE', `/api/tokens/${id}`);
}
