// The wire contract shared by the server, the client and the tests: request schemas (which also
// validate), response shapes (which also feed the OpenAPI document) and user-facing texts.
export * from './blocks.ts';
export * from './boards.ts';
export * from './comments.ts';
export * from './errors.ts';
export * from './favorites.ts';
export * from './fields.ts';
export * from './images.ts';
export * from './colors.ts';
export * from './duplicates.ts';
export * from './limits.ts';
export * from './messages.ts';
export * from './paging.ts';
export * from './pins.ts';
export * from './pin-lookup.ts';
export * from './source-url.ts';
export * from './source-url-rules.ts';
export * from './tokens.ts';
export * from './token-rules.ts';
export * from './search.ts';
export * from './search-rules.ts';
export * from './tags.ts';
export * from './tag-rules.ts';
export * from './users.ts';
export * from './events.ts';
export * from './changes.ts';
