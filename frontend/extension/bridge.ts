// The Connect page's side of the window.postMessage bridge to the browser extension
// (contract/extension-bridge.ts, docs/extension.md): messages go to this page's own origin only,
// and only messages from this very window and origin are read.
import { BRIDGE, type BridgeConnect, type BridgeHello, type BridgePing, type BridgeResult, isBridgeHello, isBridgeResult } from '../../contract/extension-bridge.ts';

export type BridgeAnswer = BridgeHello | BridgeResult;

function post(message: BridgePing | BridgeConnect): void {
  window.postMessage(message, window.location.origin);
}

/** Asks the extension to say hello (it also does by itself when its content script starts). */
export function pingExtension(): void {
  post({ type: BRIDGE.ping });
}

/** Hands the extension a token (it checks it with the server and answers with a result). */
export function sendToken(token: string): void {
  post({ type: BRIDGE.connect, token });
}

/** Calls `handler` with each hello or result the extension posts; returns the unsubscribe. */
export function listenToExtension(handler: (message: BridgeAnswer) => void): () => void {
  const onMessage = (event: MessageEvent) => {
    if (event.source !== window || event.origin !== window.location.origin) return;
    if (isBridgeHello(event.data) || isBridgeResult(event.data)) handler(event.data);
  };
  window.addEventListener('message', onMessage);
  return () => window.removeEventListener('message', onMessage);
}

/** "Chrome on Linux", from the user agent: the token's name says which browser holds it. */
export function browserName(userAgent: string): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chromium\//.test(userAgent)
          ? 'Chromium'
          : /Chrome\//.test(userAgent)
            ? 'Chrome'
            : /Safari\//.test(userAgent)
              ? 'Safari'
              : 'Browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /CrOS/.test(userAgent)
      ? 'ChromeOS'
      : /iPhone|iPad/.test(userAgent)
        ? 'iOS'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Windows/.test(userAgent)
            ? 'Windows'
            : /Linux/.test(userAgent)
              ? 'Linux'
              : '';
  return system ? `${browser} on ${system}` : browser;
}
