// Imports and the export (docs/import-export.md).
import type { EndpointAnswer } from '../../contract/endpoints.ts';
import type { Import } from '../../contract/imports.ts';
import { IMPORT_MSG } from '../../contract/import-rules.ts';
import { ApiError, isCsrfRefusal, refreshCsrfToken, toErrorBody } from './client.ts';
import { call, endpointUrl } from './endpoint.ts';
import { sendFile, type UploadOptions } from './upload.ts';

/** Sends a file to import; resolves with the import as queued (its items run in the background). */
export async function startImport(file: File, options: UploadOptions = {}): Promise<Import> {
  let answer = await sendFile('POST /api/imports', file, options);
  if (isCsrfRefusal(answer.status, answer.raw)) {
    await refreshCsrfToken();
    answer = await sendFile('POST /api/imports', file, options);
  }
  const { status, raw } = answer;
  if (status >= 200 && status < 300) {
    const created = (raw as Partial<EndpointAnswer<'POST /api/imports'>> | undefined)?.import;
    if (created && typeof created.id === 'number') return created;
    throw new ApiError(status, toErrorBody(status, undefined));
  }
  const body = toErrorBody(status, raw);
  if (status === 413 && !(raw && typeof raw === 'object' && 'message' in raw)) body.message = IMPORT_MSG.tooLarge;
  throw new ApiError(status, body);
}

export function fetchImports(cursor?: string) {
  return call('GET /api/imports', { query: { cursor: cursor || undefined } });
}

export function fetchImport(id: number) {
  return call('GET /api/imports/{id}', { params: { id } });
}

export function retryImport(id: number) {
  return call('POST /api/imports/{id}/retry', { params: { id } });
}

export function cancelImport(id: number) {
  return call('POST /api/imports/{id}/cancel', { params: { id } });
}

export function undoImport(id: number) {
  return call('DELETE /api/imports/{id}', { params: { id } });
}

/** The export downloads through the browser itself (a plain link): it streams, and may be large. */
export const EXPORT_URL = endpointUrl('GET /api/export');
