import { createHash, randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import path from 'node:path';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import type { Readable } from 'node:stream';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';
import { answerAndLinger } from './linger.ts';

// A route that takes a file (`upload` in its declaration) reads `multipart/form-data` with busboy,
// streaming the file to a temporary file as it arrives: memory holds a chunk at a time, never a
// body. Before a byte is read the sender is admitted (bodies in flight, the image budget); the
// first bytes are sniffed (a file that is not what the route takes is refused without reading the
// rest); the whole upload has a deadline. Every refusal is the error shape, answered with a
// lingering close (linger.ts) when the client may still be sending. The temporary file is removed
// on every path: refusal, failure, a client that goes away, and after the handler has finished.

export interface UploadSpec {
  /** The form field that carries the file. */
  field: string;
  /** Largest file accepted, in bytes. */
  maxBytes: number;
  /** The 413 answer for a larger one. */
  tooLarge: string;
  /** The 400 answer when no file came. */
  missing: string;
  /** For the OpenAPI document: what the file must be, and the media types it may have. */
  description: string;
  types: readonly string[];
  /** Judges the file's first bytes (up to `sniffBytes`, fewer for a smaller file): a refusal, or undefined. */
  sniff?: (head: Buffer) => Promise<HttpError | undefined>;
  sniffBytes?: number;
  /**
   * Not an image (an import's bookmark file or ZIP: its items take from the image budget one by
   * one): the sender is admitted without taking one, and has `timeoutMs` rather than the deadline
   * of an image, as a 200 MB file takes longer than a photo.
   */
  notAnImage?: { timeoutMs: number };
}

/** The file a route received: on disk until the handler is done. Name and type are the sender's word. */
export interface UploadedFile {
  path: string;
  size: number;
  /** The sha256 of the bytes received, hashed as they were written. */
  sha256: string;
  originalName: string;
  declaredType: string;
}

/** What the app gives every upload: where files go, the deadline, and who may send one now. */
export interface UploadContext {
  tmpDir: string;
  timeoutMs: number;
  /** Throws an HttpError (429, 503) to turn the sender away; else answers how to give its place back. */
  admit(userId: number, options?: { image: boolean }): Promise<() => void>;
}

export interface ReceivedUpload {
  file: UploadedFile;
  /** Removes the temporary file and gives the sender's place back (after the handler). */
  dispose(): Promise<void>;
}

/** Thrown once the receiver has answered the request itself: nothing more is to be sent. */
export class AlreadyAnswered extends Error {}

export type ReceiveFile = (req: Request, res: Response, context: UploadContext, userId: number) => Promise<ReceivedUpload>;

/** A reader of the declared form, made once per route. */
export function fileReceiver(spec: UploadSpec): ReceiveFile {
  // The most a form within the limits can weigh: the file, the fields, and room for the parts'
  // headers and boundaries. A body declared larger is refused before a byte of it is read.
  const largestForm = spec.maxBytes + 10 * LIMITS.bodyBytes + 64 * 1024;
  const tooLarge = () => new HttpError(413, spec.tooLarge, { fields: { [spec.field]: spec.tooLarge } });
  return async (req, res, context, userId) => {
    const refuse = async (error: HttpError, drain = true): Promise<never> => {
      await answerAndLinger(req, res, error, { drain });
      throw new AlreadyAnswered();
    };
    if (Number(req.headers['content-length']) > largestForm) return refuse(tooLarge());
    if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? '')) return refuse(new HttpError(400, spec.missing, { fields: { [spec.field]: spec.missing } }));
    let release: () => void;
    try {
      release = await context.admit(userId, { image: !spec.notAnImage });
    } catch (error) {
      if (error instanceof HttpError) return refuse(error);
      throw error;
    }
    const target = path.join(context.tmpDir, `upload-${randomUUID()}.tmp`);
    const dispose = async () => {
      release();
      await rm(target, { force: true });
    };
    try {
      if (req.headers.expect?.toLowerCase() === '100-continue') {
        res.locals.continued = true;
        res.writeContinue();
      }
      const file = await receive(req, spec, target, spec.notAnImage?.timeoutMs ?? context.timeoutMs, tooLarge);
      return { file, dispose };
    } catch (error) {
      await dispose();
      if (error instanceof ReceiveError) return refuse(error.answer, error.drain);
      if (error instanceof ClientGone) throw new AlreadyAnswered();
      throw error;
    }
  };
}

/** The client closed its connection before its upload was complete. */
class ClientGone extends Error {}

/** A refusal while receiving; `drain: false` when reading on is pointless (a deadline passed). */
class ReceiveError extends Error {
  readonly answer: HttpError;
  readonly drain: boolean;
  constructor(answer: HttpError, drain = true) {
    super(answer.message);
    this.answer = answer;
    this.drain = drain;
  }
}

function receive(req: Request, spec: UploadSpec, target: string, timeoutMs: number, tooLarge: () => HttpError): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        // Fields besides the file are not read, but a form may carry a few (a browser adds none);
        // each is bounded like a JSON body.
        // busboy marks a file that reaches its limit as cut off: one byte more, so exactly maxBytes passes.
        limits: { fileSize: spec.maxBytes + 1, files: 1, fields: 10, fieldSize: LIMITS.bodyBytes, parts: 11, fieldNameSize: 100, headerPairs: 100 },
      });
    } catch {
      reject(new ReceiveError(new HttpError(400, MSG.uploadFormInvalid)));
      return;
    }
    let settled = false;
    let writing: Promise<UploadedFile> | undefined;
    let fileStream: Readable | undefined;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      req.unpipe(parser);
      // Whatever the parser still holds is dropped; the request itself is drained by the refusal.
      parser.removeAllListeners();
      parser.on('error', () => undefined);
      // The file being written stops, and is closed, before the caller removes it.
      fileStream?.destroy();
      void (writing ?? Promise.resolve()).catch(() => undefined).finally(() => reject(error));
    };
    const deadline = setTimeout(() => fail(new ReceiveError(new HttpError(408, MSG.uploadTimeout), false)), timeoutMs);
    const oneFile = () => new ReceiveError(new HttpError(400, MSG.uploadOneFile, { fields: { [spec.field]: MSG.uploadOneFile } }));
    parser.on('file', (name, stream, info) => {
      // Its errors (a form cut off) reach the writer's loop; a skipped part's go nowhere.
      stream.on('error', () => undefined);
      if (name !== spec.field || writing) {
        stream.resume();
        fail(oneFile());
        return;
      }
      fileStream = stream;
      writing = writeFile(stream, spec, target, tooLarge).then((written) => ({ path: target, ...written, originalName: info.filename ?? '', declaredType: info.mimeType }));
      writing.catch(fail);
    });
    parser.on('filesLimit', () => fail(oneFile()));
    parser.on('partsLimit', () => fail(new ReceiveError(new HttpError(400, MSG.uploadFormTooBig))));
    parser.on('fieldsLimit', () => fail(new ReceiveError(new HttpError(400, MSG.uploadFormTooBig))));
    parser.on('field', (_name, _value, info) => {
      if (info.nameTruncated || info.valueTruncated) fail(new ReceiveError(new HttpError(400, MSG.uploadFormTooBig)));
    });
    // busboy: "Malformed part header", "Unexpected end of form", "Multipart: Boundary not found", …
    parser.on('error', () => fail(new ReceiveError(new HttpError(400, MSG.uploadFormInvalid))));
    parser.on('close', () => {
      if (settled) return;
      if (!writing) {
        fail(new ReceiveError(new HttpError(400, spec.missing, { fields: { [spec.field]: spec.missing } })));
        return;
      }
      writing.then(
        (file) => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          resolve(file);
        },
        () => undefined,
      );
    });
    // The client went away before its body was complete: nobody is left to answer.
    req.once('close', () => {
      if (!req.complete) fail(new ClientGone());
    });
    req.pipe(parser);
  });
}

/**
 * Writes the file's stream to `target` (created here, readable by this user only), sniffing its
 * first bytes and hashing it on the way; answers its size and hash. A refusal stops reading the
 * part at once.
 */
async function writeFile(stream: Readable & { truncated?: boolean }, spec: UploadSpec, target: string, tooLarge: () => HttpError): Promise<{ size: number; sha256: string }> {
  const handle = await open(target, 'wx', 0o600);
  const hash = createHash('sha256');
  const sniffBytes = spec.sniffBytes ?? 4100;
  let head: Buffer[] = [];
  let headSize = 0;
  let size = 0;
  const sniff = async () => {
    const refusal = await spec.sniff?.(Buffer.concat(head));
    if (refusal) throw new ReceiveError(refusal);
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (stream.truncated) throw new ReceiveError(tooLarge());
      if (headSize < sniffBytes) {
        head.push(chunk);
        headSize += chunk.length;
        if (headSize >= sniffBytes) {
          await sniff();
          head = [];
        }
      }
      size += chunk.length;
      hash.update(chunk);
      await handle.write(chunk);
    }
    // busboy marks a file cut at the size limit after its last chunk.
    if (stream.truncated) throw new ReceiveError(tooLarge());
    if (headSize < sniffBytes) await sniff();
    return { size, sha256: hash.digest('hex') };
  } finally {
    await handle.close();
  }
}
