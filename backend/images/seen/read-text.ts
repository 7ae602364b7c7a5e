import { mkdtemp, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import pLimit from 'p-limit';
import { createWorker, OEM, type Worker, type WorkerOptions } from 'tesseract.js';
import { LIMITS } from '../../../contract/limits.ts';
import { ocrLanguageFile } from './ocr-languages.ts';

// The text in a picture (docs/images.md "What is seen in a picture"): tesseract.js (Tesseract's
// LSTM recogniser compiled to WebAssembly, in a worker thread) reading the largest thumbnail.
// Nothing is fetched: the language data is read from its npm package (langPath, a local folder),
// the WebAssembly core is required from tesseract.js-core in node_modules (under Node
// the worker requires it by package name, whatever corePath says), and the cache
// is off (no file written either). Text is kept only when the recogniser is confident: a photo's
// texture read as letters is noise, and it would be searched.

/** Kept only at this mean word confidence (0–100) or above … */
const MIN_CONFIDENCE = 60;
/** … and with at least this many words. */
const MIN_WORDS = 3;
/** One picture's reading is given up after this long (the worker is then ended and made anew). */
const DEADLINE_MS = 20_000;

const require = createRequire(import.meta.url);

let languages: readonly string[] = ['eng'];

/** The languages to read (OCR_LANGS, checked installed by the configuration). Before the first reading. */
export function configureTextReading(options: { langs: readonly string[] }): void {
  languages = options.langs;
}

/**
 * The worker's options: every path a local file (tested: nothing may be downloaded). tesseract.js
 * reads every language from one folder (langPath): one language is read from its package; several
 * are linked into one folder under the system's temporary directory first.
 */
export async function workerOptions(): Promise<Partial<WorkerOptions>> {
  const files = languages.map((code) => {
    const file = ocrLanguageFile(code);
    if (!file) throw new Error(`OCR language data not installed: ${code}`);
    return file;
  });
  let langPath = dirname(files[0] ?? '');
  if (files.length > 1) {
    langPath = await mkdtemp(join(tmpdir(), 'pinboard-ocr-'));
    await Promise.all(files.map((file) => symlink(file, join(langPath, basename(file)))));
  }
  return {
    workerPath: require.resolve('tesseract.js/src/worker-script/node/index.js'),
    langPath,
    cacheMethod: 'none',
    gzip: true,
  };
}

// One worker per process, made on first use: reading is CPU-bound, and the processing of uploads
// must keep the other core. Readings wait their turn.
let worker: Promise<Worker> | undefined;
const one = pLimit(1);

async function startWorker(): Promise<Worker> {
  return createWorker(languages.join('+'), OEM.LSTM_ONLY, await workerOptions());
}

/** A picture not read within its deadline: it would be as slow again (the caller records it as read, without text). */
export class TextReadingTooSlow extends Error {}

export interface TextReading {
  /** The text kept (≤ LIMITS.imageText characters), or null when none was read with confidence. */
  text: string | null;
  /** What the recogniser said, kept or not. */
  confidence: number;
  words: number;
  ms: number;
}

/** Reads the text in a picture (any format sharp wrote: the stored WebP thumbnail, a PNG). */
export function readText(picture: Buffer): Promise<TextReading> {
  return one(async () => {
    worker ??= startWorker();
    const current = worker;
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TextReadingTooSlow(`text reading took over ${DEADLINE_MS} ms`)), DEADLINE_MS);
    });
    try {
      const { data } = await Promise.race([(await current).recognize(picture), late]);
      return { ...keptText(data.text, data.confidence), confidence: data.confidence, words: wordsOf(data.text).length, ms: Date.now() - started };
    } catch (error) {
      // A worker that ran past the deadline (or failed) is still busy or broken: the next reading gets a new one.
      if (worker === current) worker = undefined;
      void current.then((stale) => stale.terminate()).catch(() => undefined);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  });
}

/** Ends the worker once the reading under way is done (tests, shutdown); a later reading starts a new one. */
export function stopTextReading(): Promise<void> {
  return one(async () => {
    const current = worker;
    worker = undefined;
    if (current) await (await current).terminate();
  });
}

function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]{2,}/u.test(word));
}

function keptText(raw: string, confidence: number): { text: string | null } {
  if (confidence < MIN_CONFIDENCE || wordsOf(raw).length < MIN_WORDS) return { text: null };
  const text = raw
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
  return { text: text.slice(0, LIMITS.imageText) };
}
