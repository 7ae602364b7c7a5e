import type { ApiToken, TokenCreateBody } from '../../contract/tokens.ts';
import { call } from './endpoint.ts';

// Personal access tokens (docs/tokens-and-capture.md): only a signed-in browser session manages them.

export async function fetchTokens(): Promise<ApiToken[]> {
  return (await call('GET /api/tokens')).tokens;
}

export function createToken(body: TokenCreateBody) {
  return call('POST /api/tokens', { body });
}

export function revokeToken(id: number) {
  return call('DELETE /api/tokens/{id}', { params: { id } });
}
