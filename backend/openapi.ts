import { OpenApiGeneratorV31, OpenAPIRegistry, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  AlreadyFavorited,
  Board,
  BoardBody,
  BoardDeleted,
  BoardList,
  BoardPin,
  BoardPinRemoved,
  Comment,
  CommentBody,
  CommentDeleted,
  CommentList,
  ErrorBody,
  Favorite,
  FavoriteList,
  FavoriteRemoved,
  LoginBody,
  MessageBody,
  Pin,
  PinCreateBody,
  PinDeleted,
  PinList,
  PinRefBody,
  PinUpdateBody,
  SessionBody,
  SignupBody,
  User,
} from '../contract/index.ts';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENT_REPLAYED_HEADER, IdempotencyKey } from '../contract/idempotency.ts';

// The OpenAPI document is generated from the very zod schemas that validate requests (contract/),
// so it cannot drift from the server. Served at GET /api/openapi.json.

type Method = RouteConfig['method'];
interface Route {
  method: Method;
  path: string;
  summary: string;
  auth: boolean;
  body?: z.ZodType;
  ok: Record<number, { schema: z.ZodType; description: string }>;
  errors: number[];
  /** Takes an optional Idempotency-Key header (contract/idempotency.ts). */
  idempotent?: true;
}

const id = z.string().regex(/^[1-9][0-9]*$/).meta({ description: 'A positive integer id' });

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid input (body, field or id)',
  401: 'Not signed in, or bad credentials',
  403: 'Not yours, or missing/invalid CSRF token, or from another site',
  404: 'Unknown id',
  409: 'Conflict (taken email or username, second comment on a pin)',
  413: 'Body larger than 64 KB',
  422: 'This Idempotency-Key was already used for a different request',
  429: 'Rate limited; see Retry-After',
  500: 'Unexpected server error (no internals)',
  503: 'Database or Redis unavailable; retry shortly',
};

const ok = (schema: z.ZodType, description = 'Success') => ({ 200: { schema, description } });
const created = (schema: z.ZodType, description = 'Created') => ({ 201: { schema, description } });

const routes: Route[] = [
  { method: 'get', path: '/api/auth/', summary: 'Current session user (null when anonymous)', auth: false, ok: ok(SessionBody), errors: [429] },
  { method: 'post', path: '/api/auth/login', summary: 'Sign in', auth: false, body: LoginBody, ok: ok(User), errors: [400, 401, 403, 429] },
  { method: 'post', path: '/api/auth/signup', summary: 'Create an account and sign in', auth: false, body: SignupBody, ok: created(User), errors: [400, 403, 409, 429] },
  { method: 'post', path: '/api/auth/demo', summary: 'Sign in as the demo account (when the server offers it)', auth: false, ok: ok(User), errors: [403, 404, 429] },
  { method: 'get', path: '/api/auth/logout', summary: 'Sign out (needs the X-XSRF-TOKEN header, like a write)', auth: false, ok: ok(MessageBody), errors: [403, 429] },
  { method: 'get', path: '/api/pins/', summary: 'All pins, newest first', auth: false, ok: ok(PinList), errors: [] },
  { method: 'get', path: '/api/pins/{id}', summary: 'One pin', auth: false, ok: ok(Pin), errors: [400, 404] },
  { method: 'post', path: '/api/pins/', summary: 'Create a pin', auth: true, body: PinCreateBody, ok: created(Pin), errors: [400, 401, 403], idempotent: true },
  { method: 'put', path: '/api/pins/{id}', summary: 'Edit your pin', auth: true, body: PinUpdateBody, ok: ok(Pin), errors: [400, 401, 403, 404] },
  { method: 'delete', path: '/api/pins/{id}', summary: 'Delete your pin', auth: true, ok: ok(PinDeleted), errors: [400, 401, 403, 404] },
  { method: 'get', path: '/api/boards/', summary: 'Your boards', auth: true, ok: ok(BoardList), errors: [401] },
  { method: 'get', path: '/api/boards/{id}', summary: 'One of your boards (another user\'s answers 404)', auth: true, ok: ok(Board), errors: [400, 401, 404] },
  { method: 'post', path: '/api/boards/', summary: 'Create a board', auth: true, body: BoardBody, ok: created(Board), errors: [400, 401, 403], idempotent: true },
  { method: 'patch', path: '/api/boards/{id}', summary: 'Rename your board', auth: true, body: BoardBody, ok: ok(Board), errors: [400, 401, 403, 404] },
  { method: 'delete', path: '/api/boards/{id}', summary: 'Delete your board', auth: true, ok: ok(BoardDeleted), errors: [400, 401, 403, 404] },
  {
    method: 'post', path: '/api/boards/{id}/pins', summary: 'Add a pin to your board', auth: true, body: PinRefBody,
    ok: { 201: { schema: BoardPin, description: 'Added' }, 200: { schema: BoardPin, description: 'Was already on the board' } },
    errors: [400, 401, 403, 404],
  },
  { method: 'delete', path: '/api/boards/{id}/pins/{pinId}', summary: 'Remove a pin from your board', auth: true, ok: ok(BoardPinRemoved), errors: [400, 401, 403, 404] },
  { method: 'get', path: '/api/favorites/', summary: 'Your favorites', auth: true, ok: ok(FavoriteList), errors: [401] },
  {
    method: 'post', path: '/api/favorites/', summary: 'Favorite a pin', auth: true, body: PinRefBody,
    ok: { 201: { schema: Favorite, description: 'Favorited' }, 200: { schema: AlreadyFavorited, description: 'Already favorited' } },
    errors: [400, 401, 403, 404],
  },
  { method: 'delete', path: '/api/favorites/{id}', summary: 'Remove a favorite (by favorite id)', auth: true, ok: ok(FavoriteRemoved), errors: [400, 401, 403, 404] },
  { method: 'get', path: '/api/comments/pins/{pinId}/comments', summary: "A pin's comments, newest first", auth: false, ok: ok(CommentList), errors: [400, 404] },
  {
    method: 'post', path: '/api/comments/pins/{pinId}/comments', summary: 'Comment on a pin (once per pin)', auth: true, body: CommentBody,
    ok: created(Comment), errors: [400, 401, 403, 404, 409], idempotent: true,
  },
  { method: 'put', path: '/api/comments/{id}', summary: 'Edit your comment', auth: true, body: CommentBody, ok: ok(Comment), errors: [400, 401, 403, 404] },
  { method: 'delete', path: '/api/comments/{id}', summary: 'Delete your comment', auth: true, ok: ok(CommentDeleted), errors: [400, 401, 403, 404] },
];

// Idempotent creates: the optional request header, and the header that marks a replayed answer.
const idempotencyHeaders = z.object({ [IDEMPOTENCY_KEY_HEADER]: IdempotencyKey.optional() });
const replayedHeader = {
  [IDEMPOTENT_REPLAYED_HEADER]: {
    description: 'Present (`true`) when this is the stored answer to an earlier request with the same Idempotency-Key.',
    required: false,
    schema: { type: 'string' as const, enum: ['true'] },
  },
};

function pathParams(path: string) {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
  return names.length ? z.object(Object.fromEntries(names.map((name) => [name, id]))) : undefined;
}

export function buildOpenApiDocument() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'session', { type: 'apiKey', in: 'cookie', name: 'pinboard.sid' });
  registry.registerComponent('securitySchemes', 'csrf', { type: 'apiKey', in: 'header', name: 'X-XSRF-TOKEN' });
  for (const route of routes) {
    const params = pathParams(route.path);
    const responses: RouteConfig['responses'] = {};
    for (const [status, { schema, description }] of Object.entries(route.ok)) {
      responses[status] = {
        description,
        ...(route.idempotent && Number(status) < 300 ? { headers: replayedHeader } : {}),
        content: { 'application/json': { schema } },
      };
    }
    // Every API call can be rate limited (429) or meet a dependency outage (503); every body can be too large (413).
    const statuses = new Set([...route.errors, ...(route.body ? [413] : []), ...(route.idempotent ? [422] : []), 429, 500, 503]);
    for (const status of [...statuses].sort()) {
      responses[status] = { description: ERROR_TEXT[status] ?? 'Error', content: { 'application/json': { schema: ErrorBody } } };
    }
    registry.registerPath({
      method: route.method,
      path: route.path,
      summary: route.summary,
      ...(route.auth ? { security: [{ session: [], csrf: [] }] } : {}),
      request: {
        ...(params ? { params } : {}),
        ...(route.idempotent ? { headers: idempotencyHeaders } : {}),
        ...(route.body ? { body: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
      },
      responses,
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Pinboard API',
      version: '1.0.0',
      description:
        'Cookie sessions. Every non-GET request, and GET /api/auth/logout, must send the value of the XSRF-TOKEN cookie (set by any GET) in the X-XSRF-TOKEN header. Errors: {message, errors[], fields{}}.',
    },
  });
}
