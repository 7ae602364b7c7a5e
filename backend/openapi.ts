import { OpenApiGeneratorV31, OpenAPIRegistry, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { ErrorBody } from '../contract/errors.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, IdempotencyKey } from '../contract/idempotency.ts';
import { type ApiRoute, paramNames } from './http/route.ts';
import type { UploadSpec } from './http/upload.ts';

// The OpenAPI document is generated from the route declarations and the very zod schemas that
// validate requests (contract/), so it cannot drift from the server. Served at GET /api/openapi.json.

const id = z
  .string()
  .regex(/^[1-9][0-9]*$/)
  .meta({ description: 'A positive integer id' });

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input (body, field or id)',
  401: 'Not signed in, bad credentials, or a missing, malformed, unknown, expired or revoked bearer token (with WWW-Authenticate: Bearer)',
  403: 'Not yours, missing/invalid CSRF token, from another site, or not allowed to the bearer token (a read token writing; a token managing tokens or the session)',
  404: 'Unknown id',
  408: 'The upload did not arrive within UPLOAD_TIMEOUT_SECONDS',
  409: 'Conflict (taken email or username, second comment on a pin)',
  413: 'Body larger than 64 KB',
  422: 'Could not be done as asked: an Idempotency-Key already used for a different request, or a web page that could not be read',
  429: 'Rate limited (or, for images, the per-user image budget or uploads in flight); see Retry-After',
  500: 'Unexpected server error (no internals)',
  503: 'Database or Redis unavailable, or the server busy; retry shortly (see Retry-After)',
};

// Cached public reads: conditional requests and their validator.
const conditionalHeaders = z.object({ 'if-none-match': z.string().optional().meta({ description: 'The ETag of the answer the client holds' }) });
const etagHeader = {
  ETag: { description: 'Validator of this answer (send it back in If-None-Match).', required: true, schema: { type: 'string' as const } },
  'Cache-Control': { description: '`no-cache` on answers from the read cache: keep the answer, revalidate before reuse.', required: false, schema: { type: 'string' as const } },
};

const SUCCESS_TEXT: Record<number, string> = { 200: 'Success', 201: 'Created' };

// Idempotent creates: the optional request header, and the header that marks a replayed answer.
const idempotencyHeaders = z.object({ [IDEMPOTENCY_KEY_HEADER]: IdempotencyKey.optional() });
const replayedHeader = {
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: 'Present (`true`) when this is the stored answer to an earlier request with the same Idempotency-Key.',
    required: false,
    schema: { type: 'string' as const, enum: ['true'] },
  },
};

/** The failures a route can answer: those its declaration implies, and its own. */
function errorStatuses(route: ApiRoute): number[] {
  const statuses = new Set(route.errors);
  if (route.path.includes('{') || route.query || route.body || route.upload) statuses.add(400);
  // Any call may carry a bearer token, and a bad one is refused before anything else.
  statuses.add(401);
  if (route.method !== 'get' || route.csrfOnGet || route.sessionOnly) statuses.add(403);
  // Every body can be too large; every call can be rate limited or meet a dependency outage.
  if (route.body || route.upload) statuses.add(413);
  if (route.idempotent) statuses.add(422);
  for (const status of [429, 500, 503]) statuses.add(status);
  return [...statuses].sort();
}

function responsesOf(route: ApiRoute): RouteConfig['responses'] {
  const responses: RouteConfig['responses'] = {};
  for (const [status, declared] of Object.entries(route.responses)) {
    if (!declared) continue;
    // No Content: a status without a body, whatever its declaration's schema (z.undefined()) says.
    if (status === '204') {
      responses[status] = { description: 'schema' in declared ? declared.description : 'Done' };
      continue;
    }
    const { schema, description, contentType = 'application/json' } = 'schema' in declared ? declared : { schema: declared, description: SUCCESS_TEXT[Number(status)] ?? 'Success' };
    responses[status] = {
      description,
      ...(route.idempotent ? { headers: replayedHeader } : {}),
      ...(route.cached ? { headers: etagHeader } : {}),
      content: { [contentType]: { schema } },
    };
  }
  if (route.cached) responses[304] = { description: 'Not modified: the If-None-Match ETag is current (no body)', headers: etagHeader };
  for (const status of errorStatuses(route)) {
    const description = status === 413 && route.upload ? `${ERROR_TEXT[413]}, or a file over ${route.upload.maxBytes / 1024 / 1024} MB` : (ERROR_TEXT[status] ?? 'Error');
    responses[status] = { description, content: { 'application/json': { schema: ErrorBody } } };
  }
  return responses;
}

/** A form with one file field (OpenAPI 3.1: a binary string; its part's accepted types as the encoding). */
function uploadForm(upload: UploadSpec) {
  return {
    schema: z.object({ [upload.field]: z.string().meta({ format: 'binary', description: upload.description }) }),
    encoding: { [upload.field]: { contentType: upload.types.join(', ') } },
  };
}

/** Who may call it: a session (with the anti-forgery header) or a bearer token, unless only a session may. */
function securityOf(route: ApiRoute): Pick<RouteConfig, 'security'> {
  if (route.auth !== 'user') return {};
  return { security: route.sessionOnly ? [{ session: [], csrf: [] }] : [{ session: [], csrf: [] }, { bearer: [] }] };
}

export function buildOpenApiDocument(routes: readonly ApiRoute[]) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'session', { type: 'apiKey', in: 'cookie', name: 'pinboard.sid' });
  registry.registerComponent('securitySchemes', 'csrf', { type: 'apiKey', in: 'header', name: 'X-XSRF-TOKEN' });
  registry.registerComponent('securitySchemes', 'bearer', {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal access token (pb_…) from POST /api/tokens: read (GET/HEAD only) or write. No cookie and no anti-forgery header needed.',
  });
  for (const route of routes) {
    const params = paramNames(route.path);
    registry.registerPath({
      method: route.method,
      path: route.path,
      summary: route.summary,
      ...securityOf(route),
      request: {
        ...(params.length ? { params: z.object(Object.fromEntries(params.map((name) => [name, id]))) } : {}),
        ...(route.query ? { query: route.query } : {}),
        ...(route.idempotent ? { headers: idempotencyHeaders } : {}),
        ...(route.cached ? { headers: conditionalHeaders } : {}),
        ...(route.body ? { body: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
        ...(route.upload ? { body: { required: true, content: { 'multipart/form-data': uploadForm(route.upload) } } } : {}),
      },
      responses: responsesOf(route),
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Pinboard API',
      version: '1.0.0',
      description:
        'Cookie sessions or personal access tokens. With a session, every non-GET request, and GET /api/auth/logout, must send the value of the XSRF-TOKEN cookie (set by any GET) in the X-XSRF-TOKEN (or XSRF-Token) header. With `Authorization: Bearer pb_…` no cookie and no header are needed, and no cookie is set. Errors: {message, errors[], fields{}}; sign-in and sign-up errors also carry their field keys at the top level.',
    },
  });
}
