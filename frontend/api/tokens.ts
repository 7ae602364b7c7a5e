import type { ApiToken, TokenCreateBody, TokenCreated, TokenList } from '../../contract/tokens.ts';
import { api } from './client.ts';

// Personal access tokens (docs/tokens-and-capture.md): only a signed-in browser session manages them.

export async function fetchTokens(): Promise<ApiToken[]> {
  return (await api<TokenList>('GET', '/api/tokens')).tokens;
}

export function createToken(body: TokenCreateBody): Promise<TokenCreated> {
  return api<TokenCreated>('POST', '/api/tokens', body);
}

export function revokeToken(id: number): Promise<unknown> {
  return api('DELETE', `/api/tokens/${id}`);
}
