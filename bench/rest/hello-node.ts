import { createServer } from 'node:http';
import { serveUntilStopped } from './hello-serve.ts';

// The floor of the baselines: bare node:http answering a small JSON object, nothing else.

const BODY = JSON.stringify({ hello: 'world' });

serveUntilStopped(
  createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(BODY) });
    res.end(BODY);
  }),
);
