import { z } from 'zod';
import { type ApiRoute, paramNames } from '../../backend/http/route.ts';
import { API_ROUTES } from '../../backend/routes.ts';

// The API's routes as the bad-input and fuzz tests walk them, read from the server's own route
// declarations: a route added there is documented, routed and attacked without touching a test.

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One input of a body or query string, as its schema's JSON Schema (input side) describes it. */
export interface FieldSpec {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'unknown';
  required: boolean;
  /** Longest accepted string. */
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** The accepted values, when the schema lists them. */
  enum?: readonly string[];
}

export interface TestRoute {
  method: Method;
  /** As the OpenAPI document writes it: '/api/boards/{id}/pins/{pinId}'. */
  path: string;
  /** 'POST /api/boards/{id}/pins' */
  label: string;
  auth: ApiRoute['auth'];
  /** What each path parameter names ('pin', 'board', …), so a test can fill in an id it owns. */
  params: Record<string, string>;
  body?: Record<string, FieldSpec>;
  query?: Record<string, FieldSpec>;
  /** Takes multipart/form-data with one file in this field instead of a JSON body. */
  upload?: { field: string; maxBytes: number };
}

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  enum?: unknown[];
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
}

const FIELD_TYPES = ['string', 'integer', 'number', 'boolean'] as const;

function fieldSpec(schema: JsonSchema, required: boolean): FieldSpec {
  // A nullable input is `anyOf: [{type: …}, {type: 'null'}]`: the non-null branch has the rules.
  const own = schema.anyOf?.find((branch) => branch.type !== 'null') ?? schema;
  const type = FIELD_TYPES.find((t) => t === own.type) ?? 'unknown';
  return {
    type,
    required,
    ...(own.maxLength !== undefined ? { maxLength: own.maxLength } : {}),
    ...(own.minimum !== undefined ? { minimum: own.minimum } : {}),
    ...(own.maximum !== undefined ? { maximum: own.maximum } : {}),
    ...(own.enum ? { enum: own.enum.map(String) } : {}),
  };
}

/** The inputs an object schema reads, with what the caller must send (defaults make one optional). */
export function fieldsOf(schema: z.ZodType): Record<string, FieldSpec> {
  let json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  // A schema with an id in its metadata comes back as a reference into $defs.
  if (json.$ref) json = json.$defs?.[json.$ref.replace('#/$defs/', '')] ?? {};
  const required = new Set(json.required ?? []);
  return Object.fromEntries(Object.entries(json.properties ?? {}).map(([name, field]) => [name, fieldSpec(field, required.has(name))]));
}

/**
 * What a path parameter points at: `pinId` a pin; `id` the resource named just before it
 * ('/api/favorites/{id}' a favorite).
 */
export function targetOf(path: string, param: string): string {
  if (param.endsWith('Id')) return param.slice(0, -2);
  const segments = path.split('/');
  const collection = segments[segments.indexOf(`{${param}}`) - 1] ?? '';
  return collection.replace(/s$/, '');
}

function testRoute(route: ApiRoute): TestRoute {
  const method = route.method.toUpperCase() as Method;
  return {
    method,
    path: route.path,
    label: `${method} ${route.path}`,
    auth: route.auth,
    params: Object.fromEntries(paramNames(route.path).map((name) => [name, targetOf(route.path, name)])),
    ...(route.body ? { body: fieldsOf(route.body) } : {}),
    ...(route.query ? { query: fieldsOf(route.query) } : {}),
    ...(route.upload ? { upload: { field: route.upload.field, maxBytes: route.upload.maxBytes } } : {}),
  };
}

/** Every API route, in the order the server mounts them. */
export const ROUTES: readonly TestRoute[] = API_ROUTES.map(testRoute);

/** The route with this label ('PUT /api/pins/{id}'); throws when there is none. */
export function routeAt(label: string): TestRoute {
  const found = ROUTES.find((route) => route.label === label);
  if (!found) throw new Error(`No route ${label}: the API has ${ROUTES.map((r) => r.label).join(', ')}`);
  return found;
}

/** Query-string values the field must refuse (each answered 400 naming the field). */
export function wrongQueryValues(spec: FieldSpec): Array<string | string[]> {
  const wrong: Array<string | string[]> = [['a', 'b']];
  if (spec.type === 'integer' || spec.type === 'number') {
    wrong.push('abc', '1e400');
    if (spec.type === 'integer') wrong.push('1.5');
    if (spec.minimum !== undefined) wrong.push(String(spec.minimum - 1));
    if (spec.maximum !== undefined) wrong.push(String(spec.maximum + 1));
  }
  if (spec.enum) wrong.push(`not-${spec.enum.join('-')}`);
  if (spec.maxLength !== undefined) wrong.push('q'.repeat(spec.maxLength + 1));
  return wrong;
}
