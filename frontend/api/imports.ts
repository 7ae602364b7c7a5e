// Imports and the export (docs/import-export.md).
import { IMPORT_MSG, type Import, type ImportCreated, type ImportDetail, type ImportList, type ImportUndone } from '../../contract/imports.ts';
import { api, ApiError, isCsrfRefusal, refreshCsrfToken, toErrorBody } from './client.ts';
import { sendFile, type UploadOptions } from './upload.ts';

/** Sends a file to import; resolves with the import as queued (its items run in the background). */
export async function startImport(file: File, options: UploadOptions = {}): Promise<Import> {
  let answer = await sendFile('/api/imports', file, options);
  if (isCsrfRefusal(answer.status, answer.raw)) {
    await refreshCsrfToken();
    answer = await sendFile('/api/imports', file, options);
  }
  const { status, raw } = answer;
  if (status >= 200 && status < 300) {
    const created = (raw as Partial<ImportCreated> | undefined)?.import;
    if (created && typeof created.id === 'number') return created;
    throw new ApiError(status, toErrorBody(status, undefined));
  }
  const body = toErrorBody(status, raw);
  if (status === 413 && !(raw && typeof raw === 'object' && 'message' in raw)) body.message = IMPORT_MSG.tooLarge;
  throw new ApiError(status, body);
}

export function fetchImports(cursor?: string): Promise<ImportList> {
  return api<ImportList>('GET', `/api/imports${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
}

export function fetchImport(id: number): Promise<ImportDetail> {
  return api<ImportDetail>('GET', `/api/imports/${id}`);
}

export function retryImport(id: number): Promise<ImportDetail> {
  return api<ImportDetail>('POST', `/api/imports/${id}/retry`);
}

export function undoImport(id: number): Promise<ImportUndone> {
  return api<ImportUndone>('DELETE', `/api/imports/${id}`);
}

/** The export downloads through the browser itself (a plain link): it streams, and may be large. */
export const EXPORT_URL = '/api/export';
