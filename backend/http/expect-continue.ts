import type { Server } from 'node:http';

// `Expect: 100-continue`: a client asks before sending its body. Node says "100 Continue" at once
// unless the server handles `checkContinue` itself, which would let an upload that is going to be
// refused (too large, not signed in, over a limit) send its whole body first. So uploads
// (multipart forms) are let into the app without it: the upload receiver says "continue" only when
// it starts reading (backend/http/upload.ts), and a refusal is answered before any of the body is
// sent. Every other request is told to continue at once, as Node would.

export function answerExpectContinue(server: Server): void {
  server.on('checkContinue', (req, res) => {
    if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) res.writeContinue();
    server.emit('request', req, res);
  });
}
