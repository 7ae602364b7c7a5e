// One file sent as multipart/form-data (the field `file`) with XMLHttpRequest rather than fetch,
// because only XHR reports upload progress. Everything else is as for the other calls
// (./client.ts): cookies, the anti-forgery header, the error shape. Used by image uploads
// (./images.ts) and imports (./imports.ts).
import type { UploadEndpoint } from '../../contract/endpoints.ts';
import { csrfHeaders, unreachable } from './client.ts';
import { endpointUrl } from './endpoint.ts';

export interface UploadProgress {
  loaded: number;
  /** Null when the browser cannot tell the size of the whole request. */
  total: number | null;
}

export interface UploadOptions {
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting rejects the upload with a DOMException named AbortError. */
  signal?: AbortSignal;
}

export interface Answer {
  status: number;
  raw: unknown;
  /** The Retry-After header, in seconds, when the answer had one. */
  retryAfterSeconds: number | null;
}

function parse(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined; // a proxy's HTML error page, say
  }
}

/** Sends `file` to an upload route of the contract (contract/endpoints.ts). */
export function sendFile(key: UploadEndpoint, file: File, { onProgress, signal }: UploadOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', endpointUrl(key)); // same-origin: cookies go with it
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(csrfHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : null });
    xhr.onload = () => {
      done();
      const retryAfter = Number(xhr.getResponseHeader('Retry-After'));
      resolve({ status: xhr.status, raw: parse(xhr.responseText), retryAfterSeconds: retryAfter > 0 ? retryAfter : null });
    };
    xhr.onerror = () => {
      done();
      reject(unreachable());
    };
    xhr.onabort = () => {
      done();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    signal?.addEventListener('abort', onAbort);
    const body = new FormData();
    body.append('file', file, file.name);
    // No Content-Type header: the browser writes multipart/form-data with its boundary.
    xhr.send(body);
  });
}

export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
