// Calls named by the contract's route table (contract/endpoints.ts): "PATCH /api/boards/{id}" says
// the method and the path, and the table types the ids, the query, the body and the answer, so a
// call states only its values. Type-only: the schemas stay on the server. The transport (cookies,
// the anti-forgery header, errors, retries of a create) is ./client.ts's.
import type { EndpointAnswer, EndpointBody, EndpointKey, EndpointParams, EndpointQuery, IdempotentEndpoint } from '../../contract/endpoints.ts';
import { api, createOnce, type Method } from './client.ts';
import { withQuery } from './paging.ts';

/** What a call of route `K` carries: the ids its path names, its query, its body. */
export type EndpointInput<K extends EndpointKey> = (keyof EndpointParams<K> extends never ? { params?: undefined } : { params: EndpointParams<K> }) &
  ([EndpointQuery<K>] extends [never] ? { query?: undefined } : { query?: EndpointQuery<K> }) &
  ([EndpointBody<K>] extends [never] ? { body?: undefined } : { body: EndpointBody<K> }) & {
    /** The request outlives the page (sent while it is being closed: a deferred delete). */
    keepalive?: boolean;
  };

/** The input may be left out when nothing in it is required. */
type InputArg<K extends EndpointKey> = object extends EndpointInput<K> ? [input?: EndpointInput<K>] : [input: EndpointInput<K>];

function methodOf(key: EndpointKey): Method {
  return key.slice(0, key.indexOf(' ')) as Method;
}

/** The address of a call of route `key`: its path with the ids filled in, and the query string. */
export function endpointUrl<K extends EndpointKey>(key: K, ...[input]: InputArg<K>): string {
  const params: Partial<Record<string, number>> = input?.params ?? {};
  const path = key.slice(key.indexOf(' ') + 1).replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));
  return input?.query ? withQuery(path, input.query) : path;
}

/** Calls route `key` and resolves with its answer (rejects with ApiError, as ./client.ts's api). */
export function call<K extends EndpointKey>(key: K, ...args: InputArg<K>): Promise<EndpointAnswer<K>> {
  const [input] = args;
  return api<EndpointAnswer<K>>(methodOf(key), endpointUrl(key, ...args), input?.body, input?.keepalive ? { keepalive: true } : {});
}

/** A create that is safe to repeat (./client.ts's createOnce): only the routes that take an Idempotency-Key. */
export function createVia<K extends IdempotentEndpoint>(key: K, ...args: InputArg<K>): Promise<EndpointAnswer<K>> {
  const [input] = args;
  return createOnce<EndpointAnswer<K>>(endpointUrl(key, ...args), input?.body);
}
