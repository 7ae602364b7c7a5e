import path from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { IMAGE_LIMITS } from '../../contract/images.ts';
import { EXPORT_FILES, IMPORT_MSG } from '../../contract/import-rules.ts';
import { PinboardExport } from '../../contract/pinboard-export.ts';
import { csvCellIn } from '../export/csv-cells.ts';
import { boardNameOf, descriptionOf, type ItemData, itemKey, sourceOf, titleOf, withTags } from './items.ts';
import { type OpenedZip, refused, type ZipEntryInfo } from './zip-archive.ts';

// What a ZIP holds, as items (docs/import-export.md): a Pinboard export (pinboard.json at its root)
// or a ZIP of images (each folder a board, each image a pin titled from its file name, an optional
// pins.csv `file,title,description,source,board` overriding those). pinboard.json and pins.csv are
// inflated into memory; an image entry is inflated into nothing (to check it is what it says) and
// named by its index in the central directory; the job inflates it from the archive, kept whole,
// when the item's turn comes.

/** pinboard.json and pins.csv are read whole: these bound them (a 10,000-pin export's is ~4 MB). */
const MAX_JSON_BYTES = 64 * 1024 * 1024;
const MAX_CSV_BYTES = 16 * 1024 * 1024;

const IMAGE_NAME = /\.(jpe?g|png|webp|gif|avif)$/i;

/** Entries a ZIP made on a Mac or by a file manager carries besides its files. */
function isNoise(name: string): boolean {
  return name.split('/').some((segment) => segment === '__MACOSX' || segment.startsWith('.'));
}

export interface ArchiveContents {
  kind: 'pinboard' | 'images';
  items: ItemData[];
  /** A Pinboard export's boards, favorites, comments (by pin key), applied once its pins exist. */
  extra: Pick<PinboardExport, 'boards' | 'favorites' | 'comments'> | null;
}

async function readText(zip: OpenedZip, entry: ZipEntryInfo, max: number): Promise<string> {
  const bytes = await zip.read(entry, max, () => refused(IMPORT_MSG.exportInvalid));
  return bytes.toString('utf8').replace(/^\uFEFF/, '');
}

/** Reads the archive's items, inflating only pinboard.json or pins.csv; throws a 400 for a ZIP it cannot import. */
export async function readArchive(zip: OpenedZip): Promise<ArchiveContents> {
  const files = zip.entries.filter((entry) => !entry.isDirectory && !isNoise(entry.name));
  const byName = new Map(files.map((entry) => [entry.name, entry]));
  // An item's image, checked now (the ZIP is refused whole if it lies) and inflated again when its turn comes.
  // Several pins of an export may share one stored image: it is checked once.
  const checked = new Set<ZipEntryInfo>();
  const fileOf = async (name: string): Promise<string | undefined> => {
    const entry = byName.get(name);
    if (!entry) return undefined;
    if (!checked.has(entry) && entry.uncompressedSize <= IMAGE_LIMITS.maxBytes) await zip.check(entry);
    checked.add(entry);
    return String(entry.index);
  };

  const manifest = byName.get(EXPORT_FILES.json);
  if (manifest) {
    let parsed: PinboardExport;
    try {
      parsed = PinboardExport.parse(JSON.parse(await readText(zip, manifest, MAX_JSON_BYTES)));
    } catch (error) {
      if (error instanceof Error && 'status' in error) throw error;
      throw refused(IMPORT_MSG.exportInvalid);
    }
    const items: ItemData[] = [];
    for (const pin of parsed.pins) {
      const file = pin.image ? await fileOf(pin.image) : undefined;
      const remote = !file && /^https?:\/\//i.test(pin.imageUrl) ? pin.imageUrl : undefined;
      const title = titleOf(pin.title) || 'Untitled';
      items.push({
        key: itemKey('pinboard', pin.createdAt, pin.title, pin.image ?? pin.imageUrl, pin.sourceUrl ?? '', pin.description),
        label: title,
        title,
        description: descriptionOf(withTags(pin.description, pin.tags)),
        sourceUrl: sourceOf(pin.sourceUrl ?? undefined),
        image: file ? { file } : remote ? { address: remote } : null,
        boards: [],
        createdAt: Number.isNaN(Date.parse(pin.createdAt)) ? null : new Date(pin.createdAt).toISOString(),
        ref: pin.key,
        ...(pin.visibility ? { visibility: pin.visibility } : {}),
      });
    }
    return { kind: 'pinboard', items, extra: { boards: parsed.boards, favorites: parsed.favorites, comments: parsed.comments } };
  }

  const images = files.filter((entry) => IMAGE_NAME.test(entry.name));
  if (!images.length) throw refused(IMPORT_MSG.notRecognised);
  const csvEntry = byName.get(EXPORT_FILES.csv);
  const rows = new Map<string, Record<string, string>>();
  if (csvEntry) {
    let records: Array<Record<string, string>>;
    try {
      records = parseCsv(await readText(zip, csvEntry, MAX_CSV_BYTES), { columns: true, skip_empty_lines: true, relax_column_count: true, trim: true, cast: csvCellIn });
    } catch (error) {
      if (error instanceof Error && 'status' in error) throw error;
      throw refused(IMPORT_MSG.exportInvalid);
    }
    for (const record of records) if (record.file) rows.set(record.file.replace(/^\.?\//, ''), record);
  }
  const items: ItemData[] = [];
  for (const entry of images) {
    const row = rows.get(entry.name);
    rows.delete(entry.name);
    const folder = path.posix.dirname(entry.name);
    const board = row?.board !== undefined ? row.board : folder === '.' ? '' : path.posix.basename(folder);
    const stem = path.posix.basename(entry.name).replace(IMAGE_NAME, '').replace(/[_-]+/g, ' ');
    const title = titleOf(row?.title || stem) || 'Untitled';
    items.push({
      key: itemKey('images', entry.name, String(entry.crc32), String(entry.uncompressedSize)),
      label: entry.name,
      title,
      description: descriptionOf(row?.description ?? ''),
      sourceUrl: sourceOf(row?.source),
      image: { file: (await fileOf(entry.name)) as string },
      boards: boardNameOf(board) ? [boardNameOf(board)] : [],
      createdAt: null,
    });
  }
  // Rows of pins.csv naming a file the ZIP does not have: listed as failures, not lost silently.
  for (const [name, row] of rows) {
    items.push({ key: itemKey('images', name, 'missing'), label: name, title: titleOf(row.title || name) || 'Untitled', description: '', sourceUrl: null, image: null, boards: [], createdAt: null });
  }
  return { kind: 'images', items, extra: null };
}
