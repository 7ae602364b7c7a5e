// The in-page UI's styles (inside the closed shadow root, see ui-root.ts). `:host` declarations
// are !important because, for a shadow host, the page's own !important rules would win otherwise.
import { SAVED_ALREADY_CSS } from '../ui/saved-already.ts';

export const UI_CSS = `${SAVED_ALREADY_CSS}
:host {
  all: initial !important; display: block !important; position: fixed !important; inset: 0 auto auto 0 !important;
  width: 0 !important; height: 0 !important; overflow: visible !important; z-index: 2147483647 !important;
  pointer-events: none !important; visibility: visible !important; opacity: 1 !important; transform: none !important;
}
* { box-sizing: border-box; }
.ui { font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #111; letter-spacing: normal; text-align: left; }
button, input { font: inherit; color: inherit; margin: 0; }
button { cursor: pointer; }
:focus-visible { outline: 2px solid #0a58ca; outline-offset: 2px; }
[hidden] { display: none !important; }

.save {
  position: fixed; pointer-events: auto; display: inline-flex; align-items: center; gap: 6px; height: 36px;
  padding: 0 14px 0 10px; border: 0; border-radius: 999px; background: #c8102e; color: #fff; font-weight: 700;
  box-shadow: 0 1px 3px rgb(0 0 0 / 30%); transition: background-color .15s ease;
}
.save:hover { background: #a50d26; }
.save svg { width: 16px; height: 16px; fill: currentColor; }

.panel {
  position: fixed; pointer-events: auto; width: 320px; max-height: min(560px, calc(100vh - 16px)); display: flex; flex-direction: column;
  background: #fff; border-radius: 16px; box-shadow: 0 1px 2px rgb(0 0 0 / 8%), 0 8px 28px rgb(0 0 0 / 22%); overflow: hidden;
}
.panel__head { display: flex; align-items: center; gap: 10px; padding: 12px 12px 8px 14px; }
.panel__thumb { width: 44px; height: 44px; border-radius: 8px; object-fit: cover; background: #f1f1f1; flex: none; }
.panel__title { flex: 1; margin: 0; font-size: 16px; font-weight: 700; }
.icon { width: 32px; height: 32px; border: 0; border-radius: 50%; background: transparent; font-size: 20px; line-height: 1; color: #4a4a4a; }
.icon:hover { background: #f1f1f1; }
.field { display: flex; flex-direction: column; gap: 4px; padding: 0 14px 8px; font-size: 12px; font-weight: 600; color: #4a4a4a; }
.field input, .create input { height: 36px; padding: 0 10px; border: 1px solid #cdcdcd; border-radius: 10px; background: #fff; font-size: 14px; font-weight: 400; color: #111; }
/* A fixed height: the buttons below must not move under the pointer when the boards arrive. */
.boards { flex: 0 1 auto; height: 220px; min-height: 80px; overflow-y: auto; padding: 0 6px 6px; }
.boards__label { margin: 6px 8px 2px; font-size: 12px; font-weight: 600; color: #666; }
.board {
  display: flex; align-items: center; justify-content: space-between; gap: 8px; width: 100%; min-height: 40px; padding: 0 10px;
  border: 0; border-radius: 10px; background: transparent; text-align: left; font-weight: 600;
}
.board:hover, .board:focus-visible { background: #f1f1f1; }
.board__go { visibility: hidden; padding: 4px 12px; border-radius: 999px; background: #c8102e; color: #fff; font-size: 13px; }
.board:hover .board__go, .board:focus-visible .board__go { visibility: visible; }
.board__name { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.more { margin: 4px 8px; border: 0; background: none; color: #4a4a4a; font-weight: 600; text-decoration: underline; }
.create { display: flex; gap: 6px; padding: 8px 12px; border-top: 1px solid #e2e2e2; }
.create input { flex: 1; min-width: 0; }
.pill { height: 36px; padding: 0 14px; border: 0; border-radius: 999px; background: #c8102e; color: #fff; font-weight: 700; white-space: nowrap; }
.pill:hover { background: #a50d26; }
.pill--quiet { background: #e9e9e9; color: #111; }
.pill--quiet:hover { background: #dcdcdc; }
.pill:disabled { opacity: .6; cursor: default; }
.panel__foot { display: flex; justify-content: space-between; align-items: center; gap: 8px; padding: 0 12px 12px; }
.message { margin: 0 14px 8px; font-size: 13px; color: #4a4a4a; }
.message--error { color: #b3261e; font-weight: 600; }

.toasts { position: fixed; left: 16px; bottom: 16px; display: flex; flex-direction: column; gap: 8px; pointer-events: none; }
.toast {
  pointer-events: auto; display: flex; align-items: center; gap: 12px; max-width: min(440px, calc(100vw - 32px)); min-height: 48px;
  padding: 8px 8px 8px 16px; border-radius: 14px; background: #111; color: #fff; box-shadow: 0 8px 24px rgb(0 0 0 / 25%);
}
.toast__text { flex: 1; font-weight: 600; overflow-wrap: anywhere; }
.toast a, .toast button.link { color: #fff; font-weight: 700; text-decoration: underline; background: none; border: 0; padding: 4px; }
.toast .icon { color: #ddd; }
.toast .icon:hover { background: rgb(255 255 255 / 12%); }
@media (prefers-reduced-motion: no-preference) {
  .panel, .toast { animation: rise .14s ease-out; }
  @keyframes rise { from { opacity: 0; transform: translateY(6px); } }
}
`;
