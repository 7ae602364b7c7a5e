import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The languages text in pictures is read in (OCR_LANGS): each from its npm data package
// `@tesseract.js-data/<code>` in node_modules, never downloaded. A language whose package is not
// installed is refused when the configuration is read (backend/config.ts).

const require = createRequire(import.meta.url);

/** Tesseract's language codes: `eng`, `fra`, `chi_sim`, `deu_latf`. */
export const OCR_LANGUAGE_CODE = /^[a-z]{3}(_[a-z]+)?$/;

/**
 * The installed data file of a language (the LSTM model, integer weights: the recogniser runs LSTM
 * only), or undefined when its package is not installed.
 */
export function ocrLanguageFile(code: string): string | undefined {
  if (!OCR_LANGUAGE_CODE.test(code)) return undefined;
  let manifest: string;
  try {
    manifest = require.resolve(`@tesseract.js-data/${code}/package.json`);
  } catch {
    return undefined;
  }
  const file = join(dirname(manifest), '4.0.0_best_int', `${code}.traineddata.gz`);
  return existsSync(file) ? file : undefined;
}
