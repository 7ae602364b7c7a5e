import { Board, BoardBody, BoardDeleted, BoardList, BoardPage, BoardPin, BoardPinRemoved } from '../../contract/boards.ts';
import { PageQuery } from '../../contract/paging.ts';
import { PinRefBody } from '../../contract/pins.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { withIdempotency } from '../idempotency/idempotency.ts';
import {
  addPinToBoard,
  createBoard,
  deleteBoard,
  getBoardPage,
  listBoards,
  removePinFromBoard,
  renameBoard,
} from './boards.service.ts';

export const boardRoutes: ApiRoute[] = [
  route({
    method: 'get',
    path: '/api/boards/',
    summary: 'A page of your boards, newest first, each with its pin count and up to 4 cover pins',
    auth: 'user',
    query: PageQuery,
    responses: { 200: BoardList },
    handler: async ({ ctx, cursors, res, userId, query }) => {
      res.json(await listBoards(ctx.db, cursors, userId, query));
    },
  }),

  route({
    method: 'get',
    path: '/api/boards/{id}',
    summary: "One of your boards with a page of its pins, most recently added first (another user's answers 404)",
    auth: 'user',
    query: PageQuery,
    responses: { 200: BoardPage },
    errors: [404],
    handler: async ({ ctx, cursors, res, params, userId, query }) => {
      res.json(await getBoardPage(ctx.db, cursors, userId, params.id, query));
    },
  }),

  route({
    method: 'post',
    path: '/api/boards/',
    summary: 'Create a board',
    auth: 'user',
    body: BoardBody,
    responses: { 201: Board },
    idempotent: true,
    handler: async ({ ctx, req, res, body, userId, operation }) => {
      await withIdempotency(ctx, req, res, {
        operation,
        userId,
        input: body,
        status: 201,
        run: (txCtx) => createBoard(txCtx, userId, body.name),
      });
    },
  }),

  route({
    method: 'patch',
    path: '/api/boards/{id}',
    summary: 'Rename your board',
    auth: 'user',
    body: BoardBody,
    responses: { 200: Board },
    errors: [404],
    handler: async ({ ctx, res, params, body, userId }) => {
      res.json(await renameBoard(ctx, userId, params.id, body.name));
    },
  }),

  route({
    method: 'delete',
    path: '/api/boards/{id}',
    summary: 'Delete your board',
    auth: 'user',
    responses: { 200: BoardDeleted },
    errors: [404],
    handler: async ({ ctx, res, params, userId }) => {
      await deleteBoard(ctx, userId, params.id);
      res.json({ message: 'Board deleted', id: params.id });
    },
  }),

  route({
    method: 'post',
    path: '/api/boards/{id}/pins',
    summary: 'Add a pin to your board',
    auth: 'user',
    body: PinRefBody,
    responses: { 201: { schema: BoardPin, description: 'Added' }, 200: { schema: BoardPin, description: 'Was already on the board' } },
    errors: [404],
    handler: async ({ ctx, res, params, body, userId }) => {
      const { pin, added } = await addPinToBoard(ctx, userId, params.id, body.pin_id);
      res.status(added ? 201 : 200).json(pin);
    },
  }),

  route({
    method: 'delete',
    path: '/api/boards/{id}/pins/{pinId}',
    summary: 'Remove a pin from your board',
    auth: 'user',
    responses: { 200: BoardPinRemoved },
    errors: [404],
    handler: async ({ ctx, res, params, userId }) => {
      await removePinFromBoard(ctx, userId, params.id, params.pinId);
      res.json({ message: 'Pin removed from board', board_id: params.id, pin_id: params.pinId });
    },
  }),
];
