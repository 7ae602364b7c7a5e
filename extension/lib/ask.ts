// How the popup, the options page and content scripts ask the background for something.
import { browser } from './browser.ts';
import type { BackgroundAnswer, BackgroundRequest, Failure } from './messages.ts';

const UNREACHABLE: Failure = { ok: false, message: 'The extension is not responding. Reload the page and try again.' };

export async function ask<R extends BackgroundRequest>(request: R): Promise<BackgroundAnswer<R> | Failure> {
  try {
    const answer = (await browser.runtime.sendMessage(request)) as BackgroundAnswer<R> | undefined;
    return answer ?? UNREACHABLE;
  } catch {
    // The extension was updated or reloaded since this page loaded: this script is orphaned.
    return UNREACHABLE;
  }
}

export function isFailure(answer: unknown): answer is Failure {
  return typeof answer === 'object' && answer !== null && (answer as { ok?: unknown }).ok === false;
}
