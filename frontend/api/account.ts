import type { Account } from '../../contract/account.ts';
import type { User } from '../../contract/users.ts';
import { call } from './endpoint.ts';

// Account settings and forgotten passwords (docs/accounts.md).

export function fetchAccount(): Promise<Account> {
  return call('GET /api/account');
}

export function updateAccount(body: { username?: string; email?: string; currentPassword: string }): Promise<User> {
  return call('PATCH /api/account', { body });
}

export async function changePassword(currentPassword: string, newPassword: string): Promise<void> {
  await call('POST /api/account/password', { body: { currentPassword, newPassword } });
}

export async function endOtherSessions(): Promise<void> {
  await call('POST /api/account/sessions/end-others');
}

export async function deleteAccount(password: string): Promise<void> {
  await call('DELETE /api/account', { body: { password } });
}

export async function requestPasswordReset(email: string): Promise<string> {
  return (await call('POST /api/auth/password-reset', { body: { email } })).message;
}

export async function confirmPasswordReset(token: string, password: string): Promise<void> {
  await call('POST /api/auth/password-reset/confirm', { body: { token, password } });
}
