import type { z } from 'zod';
import { Account, AccountDeleteBody, AccountUpdateBody, NoContent, PasswordChangeBody, PasswordResetConfirmBody, PasswordResetRequestBody } from './account.ts';
import { BlockBody, BlockedUser, BlockList, Unblocked } from './blocks.ts';
import { BoardLinkCreated, BoardLinkList, BoardLinkRevoked, LinkedBoardPage } from './board-links.ts';
import { AddMemberBody, Board, BoardBody, BoardDeleted, BoardList, BoardMember, BoardMemberRemoved, BoardMembers, BoardPage, BoardPin, BoardPinRemoved, BoardUpdateBody } from './boards.ts';
import { ChangesAnswer, ChangesQuery } from './changes.ts';
import { Comment, CommentBody, CommentDeleted, CommentList } from './comments.ts';
import { MessageBody } from './errors.ts';
import { AlreadyFavorited, Favorite, FavoriteList, FavoriteRemoved } from './favorites.ts';
import { ImageStatus } from './image-repair.ts';
import { DuplicateGroups, DuplicatePins, DuplicatesQuery, Merged, MergeBody, MergeUndoBody, MergeUndone, ImageUploaded, PictureChecked, PictureCheckQuery } from './duplicates.ts';
import { InviteCreateBody, InviteCreated, InviteList, InviteRevoked } from './invites.ts';
import { ExportZip, ImportCreated, ImportDetail, ImportList, ImportUndone } from './imports.ts';
import { PageImages, PageImagesQuery } from './pages.ts';
import { PageQuery, PinListQuery } from './paging.ts';
import { PinLookup, PinLookupQuery } from './pin-lookup.ts';
import { Pin, PinCreateBody, PinDeleted, PinList, PinRefBody, PinUpdateBody } from './pins.ts';
import { SearchQuery, SearchResult, Suggestions, SuggestQuery } from './search.ts';
import { TokenCreateBody, TokenCreated, TokenList, TokenRevoked } from './tokens.ts';
import { LoginBody, SessionBody, SignupBody, User, UserLookupQuery, UserProfile, UserSearchQuery, UserSearchResult } from './users.ts';

// The API's routes as the server and its clients share them: each is named once by its method and
// path ("POST /api/boards/{id}/pins"), with what it takes (query, JSON body, or one uploaded file)
// and what it answers on success. The server's routes (backend/*.routes.ts) implement these entries,
// `route(ENDPOINTS['POST /api/boards/{id}/pins'], …)`, adding who may call a route, its
// documentation and its handler; the browser client's calls (frontend/api/) are typed from this
// table — type-only, so no schema ships to the browser for it.

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A success schema, or one with its own description and media type (as backend/http/route.ts takes them). */
type Responses = Partial<Record<number, z.ZodType | { schema: z.ZodType; description: string; contentType?: string }>>;

export interface Endpoint {
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Takes one file as `multipart/form-data` (the field `file`) instead of a JSON body. */
  upload?: true;
  /** Takes an optional Idempotency-Key header (contract/idempotency.ts): a lost answer may be asked again. */
  idempotent?: true;
  responses: Responses;
}

/** An entry of the table, with the method and path its name gives (what the server's `route()` implements). */
export interface NamedEndpoint extends Endpoint {
  method: Lowercase<Method>;
  path: string;
}

type MethodOf<K> = K extends `${infer M} ${string}` ? Lowercase<M> : never;
type PathOf<K> = K extends `${string} ${infer P}` ? P : never;

/** The table, each entry with its `method` and `path` read from its name. */
function endpoints<const T extends { [K in `${Method} /api/${string}`]?: Endpoint }>(table: T): { [K in keyof T]: T[K] & { method: MethodOf<K>; path: PathOf<K> } } {
  const named = Object.entries(table).map(([key, endpoint]) => {
    const [method, path] = key.split(' ') as [string, string];
    return [key, { ...endpoint, method: method.toLowerCase(), path }];
  });
  return Object.fromEntries(named) as { [K in keyof T]: T[K] & { method: MethodOf<K>; path: PathOf<K> } };
}

export const ENDPOINTS = endpoints({
  'GET /api/auth/': { responses: { 200: SessionBody } },
  'POST /api/auth/login': { body: LoginBody, responses: { 200: User } },
  'POST /api/auth/signup': { body: SignupBody, responses: { 201: User } },
  'POST /api/auth/demo': { responses: { 200: User } },
  'GET /api/auth/logout': { responses: { 200: MessageBody } },

  'GET /api/pins/lookup': { query: PinLookupQuery, responses: { 200: PinLookup } },
  'GET /api/pages/images': { query: PageImagesQuery, responses: { 200: PageImages } },
  'GET /api/pins/': { query: PinListQuery, responses: { 200: PinList } },
  'GET /api/pins/{id}': { responses: { 200: Pin } },
  'POST /api/pins/': { body: PinCreateBody, idempotent: true, responses: { 201: Pin } },
  'PUT /api/pins/{id}': { body: PinUpdateBody, responses: { 200: Pin } },
  'GET /api/pins/{id}/image-status': { responses: { 200: ImageStatus } },
  'DELETE /api/pins/{id}': { idempotent: true, responses: { 200: PinDeleted } },

  'GET /api/search': { query: SearchQuery, responses: { 200: SearchResult } },
  'GET /api/search/suggest': { query: SuggestQuery, responses: { 200: Suggestions } },
  'GET /api/pins/{id}/related': { query: PageQuery, responses: { 200: PinList } },

  'GET /api/boards/': { query: PageQuery, responses: { 200: BoardList } },
  'GET /api/boards/{id}': { query: PageQuery, responses: { 200: BoardPage } },
  'POST /api/boards/': { body: BoardBody, idempotent: true, responses: { 201: Board } },
  'PATCH /api/boards/{id}': { body: BoardUpdateBody, responses: { 200: Board } },
  'DELETE /api/boards/{id}': { idempotent: true, responses: { 200: BoardDeleted } },
  'POST /api/boards/{id}/pins': {
    body: PinRefBody,
    idempotent: true,
    responses: { 201: { schema: BoardPin, description: 'Added' }, 200: { schema: BoardPin, description: 'Was already on the board' } },
  },
  'DELETE /api/boards/{id}/pins/{pinId}': { idempotent: true, responses: { 200: BoardPinRemoved } },
  'GET /api/boards/{id}/members': { responses: { 200: BoardMembers } },
  'POST /api/boards/{id}/members': { body: AddMemberBody, responses: { 201: BoardMember } },
  'DELETE /api/boards/{id}/members/{userId}': { responses: { 200: BoardMemberRemoved } },

  'GET /api/favorites/': { query: PageQuery, responses: { 200: FavoriteList } },
  'POST /api/favorites/': {
    body: PinRefBody,
    idempotent: true,
    responses: { 201: { schema: Favorite, description: 'Favorited' }, 200: { schema: AlreadyFavorited, description: 'Already favorited' } },
  },
  'DELETE /api/favorites/{id}': { idempotent: true, responses: { 200: FavoriteRemoved } },

  'GET /api/comments/pins/{pinId}/comments': { query: PageQuery, responses: { 200: CommentList } },
  'POST /api/comments/pins/{pinId}/comments': { body: CommentBody, idempotent: true, responses: { 201: Comment } },
  'PUT /api/comments/{id}': { body: CommentBody, responses: { 200: Comment } },
  'DELETE /api/comments/{id}': { responses: { 200: CommentDeleted } },

  'POST /api/images/': {
    upload: true,
    responses: { 201: { schema: ImageUploaded, description: 'Stored (or already stored: the same picture is stored once, at the same URLs)' } },
  },

  'GET /api/images/duplicates': { query: PictureCheckQuery, responses: { 200: PictureChecked } },
  'GET /api/pins/{id}/duplicates': { responses: { 200: DuplicatePins } },
  'GET /api/duplicates': { query: DuplicatesQuery, responses: { 200: DuplicateGroups } },
  'POST /api/duplicates/merge': { body: MergeBody, idempotent: true, responses: { 200: Merged } },
  'POST /api/duplicates/merge/undo': { body: MergeUndoBody, responses: { 200: MergeUndone } },

  'GET /api/users/': { query: UserSearchQuery, responses: { 200: UserSearchResult } },
  'GET /api/users/lookup': { query: UserLookupQuery, responses: { 200: UserProfile } },
  'GET /api/users/{id}/boards': { query: PageQuery, responses: { 200: BoardList } },
  'GET /api/users/blocks': { query: PageQuery, responses: { 200: BlockList } },
  'POST /api/users/blocks': {
    body: BlockBody,
    responses: { 201: { schema: BlockedUser, description: 'Blocked' }, 200: { schema: BlockedUser, description: 'Already blocked' } },
  },
  'DELETE /api/users/blocks/{userId}': { responses: { 200: Unblocked } },

  'GET /api/changes': { query: ChangesQuery, responses: { 200: ChangesAnswer } },

  'GET /api/tokens': { responses: { 200: TokenList } },
  'POST /api/tokens': { body: TokenCreateBody, responses: { 201: TokenCreated } },
  'DELETE /api/tokens/{id}': { responses: { 200: TokenRevoked } },

  'POST /api/imports': {
    upload: true,
    responses: { 202: { schema: ImportCreated, description: "Accepted: queued behind the caller's import in progress, if any" } },
  },
  'GET /api/imports': { query: PageQuery, responses: { 200: ImportList } },
  'GET /api/imports/{id}': { responses: { 200: ImportDetail } },
  'POST /api/imports/{id}/retry': { responses: { 200: ImportDetail } },
  'POST /api/imports/{id}/cancel': { responses: { 200: ImportDetail } },
  'DELETE /api/imports/{id}': { responses: { 200: ImportUndone } },
  'GET /api/export': {
    responses: { 200: { schema: ExportZip, description: 'The export, streamed', contentType: 'application/zip' } },
  },

  'POST /api/boards/{id}/links': { responses: { 201: BoardLinkCreated } },
  'GET /api/boards/{id}/links': { responses: { 200: BoardLinkList } },
  'DELETE /api/boards/{id}/links/{linkId}': { responses: { 200: BoardLinkRevoked } },
  'GET /api/links/{secret}': { query: PageQuery, responses: { 200: LinkedBoardPage } },

  'POST /api/invites': { body: InviteCreateBody, responses: { 201: InviteCreated } },
  'GET /api/invites': { responses: { 200: InviteList } },
  'DELETE /api/invites/{id}': { responses: { 200: InviteRevoked } },

  'POST /api/auth/password-reset': {
    body: PasswordResetRequestBody,
    responses: { 202: { schema: MessageBody, description: 'Accepted: a link is mailed if an account has that email' } },
  },
  'POST /api/auth/password-reset/confirm': { body: PasswordResetConfirmBody, responses: { 204: { schema: NoContent, description: 'The password is changed' } } },
  'GET /api/account': { responses: { 200: Account } },
  'PATCH /api/account': { body: AccountUpdateBody, responses: { 200: User } },
  'POST /api/account/password': { body: PasswordChangeBody, responses: { 204: { schema: NoContent, description: 'Done' } } },
  'POST /api/account/sessions/end-others': { responses: { 204: { schema: NoContent, description: 'Done' } } },
  'DELETE /api/account': { body: AccountDeleteBody, responses: { 204: { schema: NoContent, description: 'Done' } } },
});

export type Endpoints = typeof ENDPOINTS;
/** A route's name: its method and path, e.g. "DELETE /api/boards/{id}/pins/{pinId}". */
export type EndpointKey = keyof Endpoints;

type ParamName<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamName<Rest> : never;
/** The row ids a route's path names (every `{param}` is one). */
export type EndpointParams<K extends EndpointKey> = Record<ParamName<PathOf<K>>, number>;

/**
 * What a client puts in a route's query string: the schema's input, where a number stands for its
 * digits, and an absent or null value is left out.
 */
export type EndpointQuery<K extends EndpointKey> = Endpoints[K] extends { query: infer Q extends z.ZodType }
  ? { [F in keyof z.input<Q>]?: z.input<Q>[F] | (string extends z.input<Q>[F] ? number : never) | null }
  : never;

/** A route's JSON body, as the client sends it. */
export type EndpointBody<K extends EndpointKey> = Endpoints[K] extends { body: infer B extends z.ZodType } ? z.input<B> : never;

type SchemaOf<R> = R extends { schema: infer S extends z.ZodType } ? S : R extends z.ZodType ? R : never;
/** What a route answers on success (any of its success statuses). */
export type EndpointAnswer<K extends EndpointKey> = z.output<SchemaOf<Endpoints[K]['responses'][keyof Endpoints[K]['responses']]>>;

/** The routes that may be asked again with the same Idempotency-Key. */
export type IdempotentEndpoint = { [K in EndpointKey]: Endpoints[K] extends { idempotent: true } ? K : never }[EndpointKey];
/** The routes that take one uploaded file. */
export type UploadEndpoint = { [K in EndpointKey]: Endpoints[K] extends { upload: true } ? K : never }[EndpointKey];
