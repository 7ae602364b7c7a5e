// The background's answers to the other parts (lib/messages.ts). Every server call happens here,
// with the stored token; the parts that run in web pages never see it.
import { browser, type Browser } from './browser.ts';
import { forgetAllPages, refreshPageBadges } from './badge.ts';
import type { BackgroundAnswer, BackgroundRequest, BoardChoices, Failure, PreviewAnswer } from './messages.ts';
import { PinboardApi, PinboardError } from './pinboard-api.ts';
import { type PageRef, saveImages } from './save.ts';
import { type BoardRef, dropBoard, forgetToken, readConnection, recentBoards, serverOrigin, setServer, setToken, rememberBoardUsed } from './settings.ts';
import { previewImage } from './shown-images.ts';

type Sender = Browser.runtime.MessageSender;

const NOT_CONNECTED: Failure = { ok: false, message: 'Connect the extension to your Pinboard first (open its options).', reconnect: true };

/** The API with the stored token, or null when the extension is not connected. */
export async function connectedApi(): Promise<PinboardApi | null> {
  const { server, token } = await readConnection();
  return server && token ? new PinboardApi(server, token) : null;
}

function failure(error: unknown): Failure {
  if (error instanceof PinboardError && error.unauthorized) {
    return { ok: false, message: 'Pinboard refused the extension’s token (revoked or expired). Connect again from the options.', reconnect: true };
  }
  return { ok: false, message: error instanceof Error ? error.message : 'Something went wrong.' };
}

/**
 * The extension's own pages (popup, options; in a tab or not): they may change the connection. A
 * content script's sender URL is its web page's.
 */
function fromExtensionPage(sender: Sender): boolean {
  return sender.id === browser.runtime.id && (sender.url ?? '').startsWith(browser.runtime.getURL('/'));
}

function originOf(url: string | undefined): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

/**
 * The page a request speaks for. From a content script, the page it runs in is the one the
 * browser names: which origin gets cookies and whether private addresses may be reached depend on
 * it (lib/image-bytes.ts), so a message claiming another origin is not taken at its word.
 */
function pageOf(claimed: PageRef, sender: Sender): PageRef {
  if (fromExtensionPage(sender)) return claimed;
  const actual = sender.url ?? '';
  return originOf(actual) === originOf(claimed.url) ? claimed : { ...claimed, url: actual };
}

async function preview(request: Extract<BackgroundRequest, { type: 'preview' }>, sender: Sender): Promise<PreviewAnswer> {
  const page = pageOf({ url: request.pageUrl, title: '' }, sender);
  const shown = await previewImage(request.src, page.url);
  return 'preview' in shown ? { ok: true, preview: shown.preview } : { ok: true, preview: null, reason: shown.failed };
}

async function boardChoices(api: PinboardApi, cursor: string | null): Promise<BoardChoices> {
  const page = await api.listBoards(cursor);
  const boards = page.boards.map((b) => ({ id: b.id, name: b.name }));
  if (cursor) return { recent: [], boards, nextCursor: page.nextCursor };
  // Recent boards first (the names the server has now), then the rest newest first.
  const byId = new Map(boards.map((b) => [b.id, b]));
  const recent = (await recentBoards()).map((b) => byId.get(b.id) ?? b);
  const recentIds = new Set(recent.map((b) => b.id));
  return { recent, boards: boards.filter((b) => !recentIds.has(b.id)), nextCursor: page.nextCursor };
}

/**
 * A token handed over by the app's Connect page (through the content script on that origin) or
 * pasted in the options: kept only once the server says whom it belongs to.
 */
async function connect(server: string, token: string, sender: Sender): Promise<BackgroundAnswer<{ type: 'connect'; server: string; token: string }>> {
  const origin = serverOrigin(server);
  if (!origin) return { ok: false, message: 'That is not a web address.' };
  const configured = (await readConnection()).server;
  const fromPinboardPage = !!sender.tab && originOf(sender.url) === configured && origin === configured;
  if (!fromExtensionPage(sender) && !fromPinboardPage) return { ok: false, message: 'Tokens are only taken from your Pinboard’s own Connect page.' };
  if (!/^pb_[\w-]{20,}$/.test(token.trim())) return { ok: false, message: 'That does not look like a Pinboard token (it starts with pb_).' };
  try {
    const username = await new PinboardApi(origin, token.trim()).whoAmI();
    if (!username) return { ok: false, message: 'Pinboard does not know this token.' };
    await setServer(origin);
    await setToken(token.trim(), username);
    forgetAllPages();
    return { ok: true, username };
  } catch (error) {
    return failure(error);
  }
}

export async function answer(request: BackgroundRequest, sender: Sender): Promise<unknown> {
  if (request.type === 'status') {
    const { server, username, token } = await readConnection();
    return { server, username: token ? username : null, version: browser.runtime.getManifest().version };
  }
  if (request.type === 'connect') return connect(request.server, request.token, sender);
  if (request.type === 'set-server' || request.type === 'disconnect') {
    if (!fromExtensionPage(sender)) return { ok: false, message: 'Only the extension’s options may do that.' };
    if (request.type === 'disconnect') await forgetToken();
    else {
      const origin = serverOrigin(request.server);
      if (!origin) return { ok: false, message: 'Enter your Pinboard’s address, like https://pins.example.com.' };
      await setServer(origin);
    }
    forgetAllPages();
    return { ok: true };
  }
  const api = await connectedApi();
  if (!api) return NOT_CONNECTED;
  try {
    switch (request.type) {
      case 'boards':
        return { ok: true, ...(await boardChoices(api, request.cursor)) };
      case 'create-board': {
        const created = await api.createBoard(request.name.trim());
        const board: BoardRef = { id: created.id, name: created.name };
        await rememberBoardUsed(board);
        return { ok: true, board };
      }
      case 'preview':
        return await preview(request, sender);
      case 'save':
        return await save(api, { ...request, page: pageOf(request.page, sender) });
      case 'undo':
        await Promise.all(
          request.pinIds.map((id) =>
            api.deletePin(id).catch((error: unknown) => {
              if (!(error instanceof PinboardError && error.status === 404)) throw error; // already gone
            }),
          ),
        );
        await refreshPageBadges(api, request.pageUrl);
        return { ok: true };
    }
  } catch (error) {
    return failure(error);
  }
  return { ok: false, message: 'Unknown request.' };
}

async function save(api: PinboardApi, request: Extract<BackgroundRequest, { type: 'save' }>) {
  const outcome = await saveImages(api, request.images, request.page, request.board);
  await refreshPageBadges(api, request.page.url);
  if (request.board) {
    // A board that is gone (the server said 404) leaves the recent list.
    const gone = outcome.saved.length === 0 && outcome.failed.some((f) => f.status === 404);
    if (gone) await dropBoard(request.board.id);
    else await rememberBoardUsed(request.board);
  }
  return { ok: true as const, board: request.board, ...outcome };
}
