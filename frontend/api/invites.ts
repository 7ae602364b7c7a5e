import type { Invite, InviteList } from '../../contract/invites.ts';
import { call } from './endpoint.ts';

// Invite links (docs/site-access.md): a member makes, lists and revokes their own.

export async function fetchInvites(): Promise<InviteList['invites']> {
  return (await call('GET /api/invites')).invites;
}

export async function createInvite(body: { uses: number; expiresInDays: number }): Promise<Invite> {
  return (await call('POST /api/invites', { body })).invite;
}

export function revokeInvite(id: number) {
  return call('DELETE /api/invites/{id}', { params: { id } });
}
