import { MSG } from '../../contract/messages.ts';
import { isApiError } from '../api/client.ts';

const SERVER_ERROR = MSG.serverError; // "Something went wrong. Please try again"

/**
 * Login and signup errors (docs/product.md §7): below 500 the answer's field messages (email, password,
 * credential, username); at 500 and above, or with no answer at all, {server: SERVER_ERROR}.
 */
export function authErrors(error: unknown): Record<string, string> {
  if (!isApiError(error) || error.status >= 500 || error.status === 0) return { server: SERVER_ERROR };
  const fields = { ...error.body.fields };
  if (Object.keys(fields).length === 0) fields.server = error.body.message || SERVER_ERROR;
  return fields;
}
