// A stand-in for XMLHttpRequest in the component tests, answering from the same handlers as the
// fake fetch (./render.tsx): the image upload goes through XHR for its progress events. A handler
// sees the request body as sent (a FormData for a multipart upload) and can report upload progress
// through `call.progress` before it answers; a handler that throws is a network error.

/** What a handler gets (render.tsx's Call, for fetch and XHR alike). */
export interface XhrCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
  /** Fires the request's upload progress event (only while it is not aborted or answered). */
  progress?: (loaded: number, total: number) => void;
}

export interface XhrReply {
  status?: number;
  body?: unknown;
}

type Listener = ((event: ProgressEvent) => void) | null;

function progressEvent(type: string, loaded = 0, total = 0): ProgressEvent {
  return { type, loaded, total, lengthComputable: total > 0 } as ProgressEvent;
}

/** An XMLHttpRequest class whose requests are answered by `answer`. */
export function fakeXhrClass(answer: (call: XhrCall) => Promise<XhrReply>) {
  return class FakeXMLHttpRequest {
    readonly upload: { onprogress: Listener } = { onprogress: null };
    onload: Listener = null;
    onerror: Listener = null;
    onabort: Listener = null;
    readyState = 0;
    status = 0;
    responseText = '';
    withCredentials = false;
    #method = 'GET';
    #url = '';
    #headers: Record<string, string> = {};
    #finished = false;

    open(method: string, url: string): void {
      this.#method = method.toUpperCase();
      this.#url = url;
      this.readyState = 1;
    }

    setRequestHeader(name: string, value: string): void {
      this.#headers[name] = value;
    }

    getResponseHeader(name: string): string | null {
      return name.toLowerCase() === 'content-type' && this.readyState === 4 ? 'application/json' : null;
    }

    send(body?: Document | XMLHttpRequestBodyInit | null): void {
      const url = new URL(this.#url, 'http://localhost');
      const call: XhrCall = {
        method: this.#method,
        path: url.pathname,
        query: url.searchParams,
        body: body instanceof FormData || body === undefined || body === null ? (body ?? undefined) : JSON.parse(String(body)),
        headers: { ...this.#headers },
        progress: (loaded, total) => {
          if (!this.#finished) this.upload.onprogress?.(progressEvent('progress', loaded, total));
        },
      };
      // Like a real request, nothing is answered (or reported) before send() has returned.
      const answered = Promise.resolve().then(() => answer(call));
      answered.then(
        (reply) => {
          if (this.#finished) return;
          this.#finished = true;
          this.status = reply.status ?? 200;
          this.responseText = reply.body === undefined ? '' : JSON.stringify(reply.body);
          this.readyState = 4;
          this.onload?.(progressEvent('load'));
        },
        () => {
          if (this.#finished) return;
          this.#finished = true;
          this.readyState = 4;
          this.onerror?.(progressEvent('error'));
        },
      );
    }

    abort(): void {
      if (this.#finished) return;
      this.#finished = true;
      this.readyState = 4;
      this.status = 0;
      this.onabort?.(progressEvent('abort'));
    }
  };
}
