import { ENDPOINTS } from '../../contract/endpoints.ts';
import { type ApiRoute, route } from '../http/route.ts';
import { withIdempotency, withIdempotentWrite } from '../idempotency/idempotency.ts';
import { addMember, listMembers, removeMember } from './board-members.service.ts';
import { addPinToBoard, createBoard, deleteBoard, getBoardPage, listBoards, removePinFromBoard, updateBoard } from './boards.service.ts';

export const boardRoutes: ApiRoute[] = [
  route(ENDPOINTS['GET /api/boards/'], {
    summary: 'A page of the boards you own or collaborate on, newest first, each with your role, its pin count, up to 4 cover pins and up to 5 members',
    auth: 'user',
    handler: async ({ reader, cursors, req, res, userId, query }) => {
      res.json(await reader(req, (db) => listBoards(db, cursors, userId, query)));
    },
  }),

  route(ENDPOINTS['GET /api/boards/{id}'], {
    summary:
      'A board with a page of its pins, most recently added first: to its members, and to anyone (signed out too) when it is public, as a viewer shown its public pins only; a private board is 404 to non-members',
    auth: 'public',
    errors: [404],
    handler: async ({ reader, cursors, req, res, params, userId, query }) => {
      res.json(await reader(req, (db) => getBoardPage(db, cursors, userId, params.id, query)));
    },
  }),

  route(ENDPOINTS['POST /api/boards/'], {
    summary: 'Create a board',
    auth: 'user',
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

  route(ENDPOINTS['PATCH /api/boards/{id}'], {
    summary: 'Rename your board, or make it public or private, or both (owner only; a collaborator gets 403)',
    auth: 'user',
    errors: [403, 404],
    handler: async ({ ctx, res, params, body, userId }) => {
      res.json(await updateBoard(ctx, userId, params.id, body));
    },
  }),

  route(ENDPOINTS['DELETE /api/boards/{id}'], {
    summary: 'Delete your board (owner only; a collaborator gets 403)',
    auth: 'user',
    errors: [403, 404],
    handler: async ({ ctx, req, res, params, userId, operation }) => {
      await withIdempotentWrite(ctx, req, res, {
        operation,
        userId,
        input: undefined,
        run: async (txCtx) => {
          await deleteBoard(txCtx, userId, params.id);
          return { status: 200, body: { message: 'Board deleted', id: params.id } };
        },
      });
    },
  }),

  route(ENDPOINTS['POST /api/boards/{id}/pins'], {
    summary: 'Add a pin to a board you are a member of',
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, req, res, params, body, userId, operation }) => {
      await withIdempotentWrite(ctx, req, res, {
        operation,
        userId,
        input: body,
        run: async (txCtx) => {
          const { pin, added } = await addPinToBoard(txCtx, userId, params.id, body.pin_id);
          return { status: added ? 201 : 200, body: pin };
        },
      });
    },
  }),

  route(ENDPOINTS['DELETE /api/boards/{id}/pins/{pinId}'], {
    summary: 'Remove a pin from a board you are a member of',
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, req, res, params, userId, operation }) => {
      await withIdempotentWrite(ctx, req, res, {
        operation,
        userId,
        input: undefined,
        run: async (txCtx) => {
          await removePinFromBoard(txCtx, userId, params.id, params.pinId);
          return { status: 200, body: { message: 'Pin removed from board', board_id: params.id, pin_id: params.pinId } };
        },
      });
    },
  }),

  route(ENDPOINTS['GET /api/boards/{id}/members'], {
    summary: "A board's members, owner first (members only; a non-member gets 404)",
    auth: 'user',
    errors: [404],
    handler: async ({ ctx, res, params, userId }) => {
      res.json(await listMembers(ctx.db, userId, params.id));
    },
  }),

  route(ENDPOINTS['POST /api/boards/{id}/members'], {
    summary: 'Invite a user by username as a collaborator (owner only: 403 for a collaborator; 404 unknown user; 409 already a member, the owner, or the board is full)',
    auth: 'user',
    errors: [403, 404, 409],
    handler: async ({ ctx, res, params, body, userId }) => {
      res.status(201).json(await addMember(ctx, userId, params.id, body.username));
    },
  }),

  route(ENDPOINTS['DELETE /api/boards/{id}/members/{userId}'], {
    summary: 'The owner removes a collaborator, or a collaborator leaves (removes themself); other attempts by a member get 403',
    auth: 'user',
    errors: [403, 404],
    handler: async ({ ctx, res, params, userId }) => {
      await removeMember(ctx, userId, params.id, params.userId);
      res.json({ message: 'Member removed from board', board_id: params.id, user_id: params.userId });
    },
  }),
];
