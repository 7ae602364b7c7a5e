// On the user's own Pinboard (the origin set in the options, and only there): the app's Connect
// page asks whether the extension is here and hands it a new write token (contract/extension-
// bridge.ts, docs/extension.md). Messages go to and are taken from this very window and origin.
import { BRIDGE, type BridgeHello, type BridgeResult, isBridgeConnect, isBridgePing } from '../../contract/extension-bridge.ts';
import { ask, isFailure } from '../lib/ask.ts';
import type { Status } from '../lib/messages.ts';

export function startConnectBridge(status: Status): void {
  const origin = location.origin;
  let username = status.username;
  const post = (message: BridgeHello | BridgeResult) => window.postMessage(message, origin);
  const hello = () => post({ type: BRIDGE.hello, version: status.version, username });

  window.addEventListener('message', (event: MessageEvent) => {
    if (event.source !== window || event.origin !== origin) return;
    if (isBridgePing(event.data)) hello();
    else if (isBridgeConnect(event.data)) {
      void ask({ type: 'connect', server: origin, token: event.data.token }).then((answer) => {
        if (isFailure(answer)) post({ type: BRIDGE.result, ok: false, message: answer.message });
        else {
          username = answer.username;
          post({ type: BRIDGE.result, ok: true, username: answer.username });
        }
      });
    }
  });
  hello();
}
