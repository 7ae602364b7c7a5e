import { createStore } from 'jotai';

// The one module-level store (STYLE.md). React reads it through <Provider store={store}>; the live
// client (../live/) writes server events into it from outside React with the idempotent helpers of
// this folder (../live/apply.ts says which event calls which), and every open screen follows,
// since screens only read atoms.
export const store = createStore();
export type Store = ReturnType<typeof createStore>;
