import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import type { Board } from '../../contract/boards.ts';
import type { Comment } from '../../contract/comments.ts';
import type { Favorite } from '../../contract/favorites.ts';
import type { Pin } from '../../contract/pins.ts';
import { ApiClient, type ApiResponse } from './client.ts';

// The OpenAPI check of tests/api/openapi.test.ts: the document served at /api/openapi.json, each
// real response validated against the schema it gives for the path, method and status, and the
// (path, method, status) of every validated answer recorded, so the test can tell what no call made.

interface MediaType {
  schema?: object;
}
interface Operation {
  requestBody?: { content?: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, object> };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

// Both packages are CommonJS with `exports.default`; under NodeNext typing the default import is the
// module object, whose `default` is the class / plugin (at run time it is the same function).
const Ajv2020 = Ajv2020Module.default;
type Ajv2020 = InstanceType<typeof Ajv2020>;
const addFormats = addFormatsModule.default;

export const SCHEMA_BASE = 'https://pinboard.test/openapi/components/schemas/';

/** Points `#/components/schemas/X` references at the ids the component schemas are registered under. */
function rewriteRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rewriteRefs);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/') ? SCHEMA_BASE + value.slice('#/components/schemas/'.length) : rewriteRefs(value),
    ]),
  );
}

export let doc: OpenApiDocument;
export let ajv: Ajv2020;
const validators = new Map<string, ReturnType<Ajv2020['compile']>>();
/** `${method} ${path} ${status}` of every real response that was checked against the document. */
export const exercised = new Set<string>();

export function validatorFor(schema: object) {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(rewriteRefs(schema) as object);
    validators.set(key, validate);
  }
  return validate;
}

export function operation(method: string, path: string): Operation {
  const op = doc.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`${method} ${path} is not in the OpenAPI document`);
  return op;
}

export function responseSchema(method: string, path: string, status: number): object {
  const documented = operation(method, path).responses[String(status)];
  if (!documented) {
    throw new Error(`${method} ${path} answered ${status}, which the document does not list (it lists ${Object.keys(operation(method, path).responses).join(', ')})`);
  }
  const schema = documented.content?.['application/json']?.schema;
  if (!schema) throw new Error(`${method} ${path} ${status} has no application/json schema`);
  return schema;
}

/** Validates a real response against the document and records the (path, method, status) as covered. */
export function expectDocumented(method: Method, path: string, response: ApiResponse): void {
  const context = `${method} ${path} → ${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
  // A download (GET /api/export) documents its own media type and no JSON body.
  // No Content: documented without a body, and sent without one.
  if (response.status === 204) {
    expect(operation(method, path).responses['204'], context).toBeDefined();
    expect(operation(method, path).responses['204']?.content, context).toBeUndefined();
    expect(response.body, context).toBe('');
    exercised.add(`${method} ${path} 204`);
    return;
  }
  const types = Object.keys(operation(method, path).responses[String(response.status)]?.content ?? {});
  const download = types.find((type) => type !== 'application/json');
  if (download && !types.includes('application/json')) {
    expect(response.headers.get('content-type') ?? '', context).toBe(download);
    exercised.add(`${method} ${path} ${response.status}`);
    return;
  }
  expect(response.headers.get('content-type') ?? '', context).toMatch(/^application\/json/);
  const validate = validatorFor(responseSchema(method, path, response.status));
  const valid = validate(response.body);
  expect(valid ? [] : validate.errors, context).toEqual([]);
  exercised.add(`${method} ${path} ${response.status}`);
}

/** Calls a documented operation with concrete path parameters and checks the answer against the document. */
export async function call<T = unknown>(
  client: ApiClient,
  method: Method,
  path: string,
  options: { params?: Record<string, number | string>; query?: string; json?: unknown; expect?: number; csrf?: boolean } = {},
): Promise<ApiResponse<T>> {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => String(options.params?.[name] ?? `{${name}}`));
  const concrete = options.query ? `${filled}?${options.query}` : filled;
  const response = await client.request<T>(method, concrete, {
    ...(options.json !== undefined ? { json: options.json } : {}),
    ...(options.csrf === false ? { csrf: false } : {}),
  });
  if (options.expect !== undefined) expect(response.status, `${method} ${concrete} ${JSON.stringify(response.body).slice(0, 300)}`).toBe(options.expect);
  expectDocumented(method, path, response);
  // A body the server accepted must also satisfy the documented request schema.
  if (response.status < 300 && options.json !== undefined) {
    const requestSchema = operation(method, path).requestBody?.content?.['application/json']?.schema;
    expect(requestSchema, `${method} ${path} documents its request body`).toBeDefined();
    const validate = validatorFor(requestSchema as object);
    expect(validate(options.json) ? [] : validate.errors, `${method} ${path} request ${JSON.stringify(options.json)}`).toEqual([]);
  }
  return response;
}

interface Fixtures {
  pin: number;
  board: number;
  favorite: number;
  comment: number;
}

/** A pin (on a board, favorited, commented) and a board, all owned by the client's user. */
export async function ownedFixtures(client: ApiClient): Promise<Fixtures> {
  const pin = await client.post<Pin>('/api/pins/', pinBody('Existing'));
  const board = await client.post<Board>('/api/boards/', { name: 'Existing board' });
  expect((await client.post(`/api/boards/${board.body.id}/pins`, { pin_id: pin.body.id })).status).toBe(201);
  const favorite = await client.post<Favorite>('/api/favorites/', { pin_id: pin.body.id });
  const comment = await client.post<Comment>(`/api/comments/pins/${pin.body.id}/comments`, { text: 'Existing' });
  expect([pin.status, board.status, favorite.status, comment.status]).toEqual([201, 201, 201, 201]);
  return { pin: pin.body.id, board: board.body.id, favorite: favorite.body.id, comment: comment.body.id };
}

/** Fills a documented path with the fixture each parameter names. */
export function concretePath(path: string, fixtures: Fixtures): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === 'pinId' || path.startsWith('/api/pins/')) return String(fixtures.pin);
    if (path.startsWith('/api/boards/')) return String(fixtures.board);
    if (path.startsWith('/api/favorites/')) return String(fixtures.favorite);
    return String(fixtures.comment);
  });
}

export const pinBody = (title = 'Documented pin') => ({ title, imageUrl: 'https://example.com/doc.png', description: 'Described.' });

/** Reads the document the server serves and compiles its component schemas. */
export async function loadDocument(url: string): Promise<void> {
  const res = await new ApiClient(url).get<OpenApiDocument>('/api/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = res.body;
  ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) ajv.addSchema(rewriteRefs(schema) as object, SCHEMA_BASE + name);
}
