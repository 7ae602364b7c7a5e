import { type ClientRequest, type IncomingMessage, request as httpRequest } from 'node:http';
import type { ApiClient } from './client.ts';

// Uploads driven by hand over node:http, for what fetch cannot do: send a body slowly or only in
// part, stop half-way, declare a length it never sends, or ask `Expect: 100-continue`.

export interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface SlowUpload {
  req: ClientRequest;
  /** The server's answer (rejects if the connection fails first). */
  answer: Promise<Answer>;
  /** Whether the server said `100 Continue`. */
  continued: () => boolean;
  /** Sends `bytes` more of the file (zeros after a JPEG's magic bytes). */
  send(bytes: number): void;
  /** Sends the rest of the declared body. */
  finish(): void;
}

const BOUNDARY = 'slowuploadboundary';

/**
 * Starts a `POST /api/images/` of a `fileBytes`-byte file as `client`, sending the headers and the
 * form's preamble only. The file's first bytes are a JPEG's magic, so sniffing accepts it.
 */
export function startSlowUpload(baseUrl: string, client: ApiClient, fileBytes: number, options: { expectContinue?: boolean } = {}): SlowUpload {
  const head = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const req = httpRequest(`${baseUrl}/api/images/`, {
    method: 'POST',
    headers: {
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-xsrf-token': client.csrfToken ?? '',
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'content-length': String(head.length + fileBytes + tail.length),
      ...(options.expectContinue ? { expect: '100-continue' } : {}),
    },
  });
  let continued = false;
  let sent = 0;
  req.on('continue', () => {
    continued = true;
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
  // Nobody may be listening yet when the test destroys the request on purpose.
  answer.catch(() => undefined);
  const send = (bytes: number) => {
    const chunk = Buffer.alloc(Math.min(bytes, fileBytes - sent));
    if (sent === 0 && chunk.length >= 3) chunk.set([0xff, 0xd8, 0xff]);
    sent += chunk.length;
    req.write(chunk);
  };
  if (!options.expectContinue) req.write(head);
  else req.on('continue', () => req.write(head));
  return {
    req,
    answer,
    continued: () => continued,
    send,
    finish() {
      send(fileBytes - sent);
      req.end(tail);
    },
  };
}
