import type { Request, Response } from 'express';
import multer, { MulterError } from 'multer';
import { LIMITS } from '../../contract/limits.ts';
import { MSG } from '../../contract/messages.ts';
import { HttpError } from '../errors.ts';

// A route that takes a file (`upload` in its declaration) reads `multipart/form-data` with multer
// (≥ 2.0.2: past CVE-2025-47935/47944/48997/7338), into memory and bounded: one file, a few small
// fields. Every way a form can be wrong is answered in the error shape, never an HTML page or a crash.

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
}

/** The file a route received. Its name and declared type are the sender's word: never trusted. */
export interface UploadedFile {
  bytes: Buffer;
  size: number;
  originalName: string;
  declaredType: string;
}

export type ReceiveFile = (req: Request, res: Response) => Promise<UploadedFile>;

/** A reader of the declared form, made once per route. */
export function fileReceiver(spec: UploadSpec): ReceiveFile {
  const parse = multer({
    storage: multer.memoryStorage(),
    // Fields besides the file are not read, but a form may carry a few (a browser adds none);
    // each is bounded like a JSON body.
    limits: { fileSize: spec.maxBytes, files: 1, fields: 10, fieldSize: LIMITS.bodyBytes, parts: 11, fieldNameSize: 100, headerPairs: 100 },
  }).single(spec.field);
  // The most a form within those limits can weigh: the file, the fields, and room for the parts'
  // headers and boundaries.
  const largestForm = spec.maxBytes + 10 * LIMITS.bodyBytes + 64 * 1024;
  return (req, res) =>
    new Promise((resolve, reject) => {
      // A body declared larger than any acceptable form is refused before a byte of it is read, and
      // the connection is closed rather than drained (multer would read 20 MB before saying no).
      if (Number(req.headers['content-length']) > largestForm) {
        res.setHeader('Connection', 'close');
        reject(new HttpError(413, spec.tooLarge, { fields: { [spec.field]: spec.tooLarge } }));
        return;
      }
      parse(req, res, (error: unknown) => {
        if (error) {
          reject(uploadError(error, spec));
          return;
        }
        const file = req.file;
        if (!file) {
          reject(new HttpError(400, spec.missing, { fields: { [spec.field]: spec.missing } }));
          return;
        }
        resolve({ bytes: file.buffer, size: file.size, originalName: file.originalname, declaredType: file.mimetype });
      });
    });
}

/** multer's own errors, and busboy's (a malformed form), in the error shape. */
function uploadError(error: unknown, spec: UploadSpec): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof MulterError) {
    switch (error.code) {
      case 'LIMIT_FILE_SIZE':
        return new HttpError(413, spec.tooLarge, { fields: { [spec.field]: spec.tooLarge } });
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_UNEXPECTED_FILE':
        return new HttpError(400, MSG.uploadOneFile, { fields: { [spec.field]: MSG.uploadOneFile } });
      case 'LIMIT_PART_COUNT':
      case 'LIMIT_FIELD_KEY':
      case 'LIMIT_FIELD_VALUE':
      case 'LIMIT_FIELD_COUNT':
        return new HttpError(400, MSG.uploadFormTooBig);
      default:
        return new HttpError(400, MSG.uploadFormInvalid);
    }
  }
  // busboy: "Malformed part header", "Unexpected end of form", "Multipart: Boundary not found", …
  return new HttpError(400, MSG.uploadFormInvalid);
}
