import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

// How the embedded database is opened: its settings, and a new one made from a template instead of
// PGlite's own initdb. Measured (docs/footprint.md): PGlite's initdb runs a second Postgres
// instance, snapshots its whole 128 MB heap to reset it before each of its 13 runs, and has V8
// optimise much of the 9 MB of Postgres code meanwhile: the first start of the app peaked at about
// 1.1 GB resident, for a folder that is the same on every machine. Unpacking the template (the
// folder PGlite's initdb makes, 40 MB as a tar, 1.3 MB with brotli: its three databases are nearly
// identical) peaks at about a third of that and takes a second instead of seven.

/** The template: `pglite.tar.br` and `pglite.json`, made by `node scripts/pglite-template.ts`. */
export const TEMPLATE_DIR = fileURLToPath(new URL('./pglite-template/', import.meta.url));
export const TEMPLATE_TAR = path.join(TEMPLATE_DIR, 'pglite.tar.br');
export const TEMPLATE_INFO = path.join(TEMPLATE_DIR, 'pglite.json');

export interface TemplateInfo {
  /** `select version()` of the PGlite that made it: a template is used only by the same build. */
  version: string;
}

/**
 * Postgres settings of the embedded database. Postgres' defaults are a server's: 128 MB of shared
 * buffers that PGlite's Wasm memory keeps resident for the life of the process. One backend serving
 * one small site needs far less, and PGlite reads its files through the operating system, whose
 * page cache still holds what the buffers do not (PGLITE_SETTINGS adds to or overrides these).
 */
export const EMBEDDED_SETTINGS: Readonly<Record<string, string>> = {
  shared_buffers: '16MB',
};

/** Extensions the migrations create (pg_trgm: typo-tolerant search); PGlite ships them in the package. */
const EXTENSIONS = { pg_trgm };

function startParams(settings: Readonly<Record<string, string>>): string[] {
  return [...PGlite.defaultStartParams, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
}

/**
 * Opens the embedded database in `dir` (undefined: in memory). A folder without a database is
 * filled from the template; should the template not fit the installed PGlite (another version, or
 * it fails to open), PGlite's own initdb makes it as before.
 */
export async function openPGlite(dir: string | undefined, settings: Readonly<Record<string, string>> = EMBEDDED_SETTINGS): Promise<PGlite> {
  const options = { startParams: startParams(settings), extensions: EXTENSIONS };
  const fresh = dir === undefined || !existsSync(path.join(dir, 'PG_VERSION'));
  if (fresh) {
    const fromTemplate = await openFromTemplate(dir, options);
    if (fromTemplate) return fromTemplate;
  }
  return PGlite.create(dir, options);
}

async function openFromTemplate(dir: string | undefined, options: Pick<PGliteOptions, 'startParams' | 'extensions'>): Promise<PGlite | undefined> {
  let pglite: PGlite | undefined;
  try {
    const info = JSON.parse(readFileSync(TEMPLATE_INFO, 'utf8')) as TemplateInfo;
    let tar: Buffer | undefined = brotliDecompressSync(readFileSync(TEMPLATE_TAR));
    if (dir === undefined) {
      // In memory (tests): PGlite unpacks it. It holds on to the very options object it is given
      // (its Emscripten module closes over it), so the tar is let go once unpacked.
      const withTemplate: PGliteOptions = { ...options, loadDataDir: new Blob([new Uint8Array(tar)]) };
      tar = undefined;
      pglite = await PGlite.create(withTemplate);
      delete withTemplate.loadDataDir;
    } else {
      // A folder: unpacked here, so PGlite finds a database and only opens it (handing it the tar
      // would copy it twice more, at the first start's peak).
      unpack(tar, dir);
      tar = undefined;
      pglite = await PGlite.create(dir, options);
    }
    const { rows } = await pglite.query<{ version: string }>('select version()');
    if (rows[0]?.version === info.version) return pglite;
  } catch {
    // No template, or not this build's folder: initdb instead.
  }
  await pglite?.close().catch(() => undefined);
  if (dir !== undefined) emptyFolder(dir);
  return undefined;
}

/**
 * Writes the entries of a ustar archive (folders and plain files, as PGlite's dumpDataDir makes
 * them; names are absolute within the data folder) under `dir`, private to this account.
 */
function unpack(tar: Buffer, dir: string): void {
  const root = path.resolve(dir);
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    const field = (from: number, length: number) => header.toString('latin1', from, from + length).replace(/\0.*$/s, '');
    const name = `${field(345, 155)}${field(0, 100)}`;
    if (name === '') break;
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const target = path.resolve(root, `.${path.posix.normalize(`/${name}`)}`);
    if (!target.startsWith(root)) throw new Error(`template entry outside the folder: ${name}`);
    if (type === '5') mkdirSync(target, { recursive: true, mode: 0o700 });
    else if (type === '0' || type === '') {
      mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      writeFileSync(target, tar.subarray(at + 512, at + 512 + size), { mode: 0o600 });
    } else throw new Error(`template entry of type ${type}: ${name}`);
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

/** Removes what an unusable template left in `dir`, keeping the folder itself (and its mode). */
function emptyFolder(dir: string): void {
  for (const entry of readdirSync(dir)) rmSync(path.join(dir, entry), { recursive: true, force: true });
}
