import { createServer } from 'node:http';
import express from 'express';
import { serveUntilStopped } from './hello-serve.ts';

// The baseline the issue's targets are ratios of: Express 5's hello world with its defaults (ETag,
// X-Powered-By), answering JSON.

const app = express();
app.get('/', (_req, res) => {
  res.json({ hello: 'world' });
});

serveUntilStopped(createServer(app));
