import { createStore } from 'jotai';

// The one module-level store (STYLE.md). React reads it through <Provider store={store}>; code
// outside React (the socket client of the live-update issue) applies server events with the
// idempotent helpers of this folder, and every open screen follows, since screens only read atoms:
//
//   pin:created / pin:updated {pin}        → upsertPin(store, pin)              (./pins.ts)
//   pin:deleted {pinId}                    → removePin(store, pinId)            (./pins.ts)
//   pin:likes {pinId, likesCount, version} → setPinLikes(store, pinId, count)   (./pins.ts; newest version wins, live/apply.ts)
//   comment:created / comment:updated      → upsertComment(store, comment)      (./comments.ts)
//   comment:deleted {commentId}            → removeComment(store, commentId)    (./comments.ts)
//   favorite:added {favorite}              → upsertFavorite(store, favorite)    (./favorites.ts)
//   favorite:removed {favoriteId, pinId}   → removeFavorite(store, favoriteId)  (./favorites.ts)
//   board:created / board:updated {board}  → upsertBoard(store, board)          (./boards.ts)
//   board:deleted {boardId}                → removeBoard(store, boardId)        (./boards.ts)
//   board:pin-added {boardId, pin}         → addPinToBoard(store, boardId, pin) (./boards.ts)
//   board:pin-removed {boardId, pinId}     → removePinFromBoard(store, ...)     (./boards.ts)
//   session:ended {}                       → clearSession(store)                (./session.ts)
//
// After a reconnect, refetch with the same loaders the screens use (setAllPins, setAllFavorites,
// setAllBoards, setPinComments replace what they cover).
export const store = createStore();
export type Store = ReturnType<typeof createStore>;
