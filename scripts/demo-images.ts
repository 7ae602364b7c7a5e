// `node scripts/demo-images.ts [--work DIR]`: builds the embedded demo's pictures, db/demo-images/
// (the image files, catalog.json and LICENSES.md), from Debian packages.
//
// A maintainer's tool, run by hand when the set changes; CI, `npm start` and the seed never run it:
// its output is committed, so the demo works offline. It needs this machine's apt-get (download
// only, nothing is installed), dpkg-deb and a reachable Debian mirror. The packages' versions are
// pinned (scripts/demo-images/selection.ts), the picks are a fixed list and sharp's output is
// deterministic, so a rebuild gives the same files.
//
// What it does: downloads the packages into DIR (default: the system's temp folder), extracts them,
// reads each picture's author and licence from the package's own records (metadata.json, DEP-5
// copyright, AUTHORS, docstrings) and refuses a picture it finds none for; scales every picture to
// at most 1200 px (photos to JPEG q80, drawings to WebP; clip art trimmed, padded and flattened on
// white); writes catalog.json in seed order and LICENSES.md; prints the set's composition.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp, { type Sharp } from 'sharp';
import type { DemoCatalog, DemoImage } from '../db/demo-catalog.ts';
import { licensesMarkdown } from './demo-images/licenses.ts';
import { type Extracted, fetchPackage } from './demo-images/packages.ts';
import { order, plan, type Planned } from './demo-images/plan.ts';
import { PACKAGES, type PackageName } from './demo-images/selection.ts';

const MAX_SIDE = 1200;
const OUT_DIR = path.resolve(import.meta.dirname, '../db/demo-images');
const { values } = parseArgs({ options: { work: { type: 'string', default: path.join(os.tmpdir(), 'pinboard-demo-images') } } });
const workDir = path.resolve(values.work);

// ---------- images ----------

function slug(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[’']/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** Writes one picture; returns its file's name, size and pixels. */
async function render(p: Planned, base: string): Promise<{ file: string; width: number; height: number; bytes: number }> {
  let image: Sharp;
  if (p.clipart) {
    // Clip art: cut the empty margin, give it a little air, and put it on white so every drawing
    // reads the same on a card.
    const trimmed = await sharp(p.src).trim().toBuffer({ resolveWithObject: true });
    const pad = Math.round(Math.max(trimmed.info.width, trimmed.info.height) * 0.06);
    const padded = await sharp(trimmed.data)
      .extend({ top: pad, bottom: pad, left: pad, right: pad, background: { r: 255, g: 255, b: 255, alpha: 0 } })
      .flatten({ background: '#ffffff' })
      .toBuffer();
    image = sharp(padded).resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
  } else if (p.crop) {
    const meta = await sharp(p.src).metadata();
    const height = Math.min(MAX_SIDE, meta.height, Math.floor(meta.width / p.crop));
    image = sharp(p.src)
      .rotate()
      .resize({ width: Math.round(height * p.crop), height, fit: 'cover', position: sharp.strategy.attention });
  } else {
    image = sharp(p.src).rotate().resize({ width: MAX_SIDE, height: MAX_SIDE, fit: 'inside', withoutEnlargement: true });
  }
  const file = p.kind === 'photo' ? `${base}.jpg` : `${base}.webp`;
  const encoded = p.kind === 'photo' ? image.jpeg({ quality: 80, mozjpeg: true }) : image.webp({ quality: p.clipart ? 90 : 82 });
  const info = await encoded.toFile(path.join(OUT_DIR, file));
  return { file, width: info.width, height: info.height, bytes: info.size };
}

const SOURCE_NAMES: Record<PackageName, string> = {
  'openclipart-png': 'Openclipart',
  'plasma-workspace-wallpapers': 'the KDE Plasma wallpapers',
  'mate-backgrounds': 'the MATE desktop backgrounds',
  'gnome-backgrounds': 'the GNOME backgrounds',
  'python3-skimage': 'scikit-image’s sample images',
};

function describe(p: Planned): string {
  if (p.tags.length < 2 || p.tags.length > 4 || p.tags.some((tag) => !/^[a-z0-9]+$/.test(tag))) throw new Error(`${p.title}: tags must be 2–4 lower-case words, got ${p.tags.join(' ')}`);
  const tags = p.tags.map((tag) => `#${tag}`).join(' ');
  if (p.clipart) return `${p.title}: public-domain clip art${p.credit.author ? ` by ${p.credit.author}` : ''} from Openclipart. ${tags}`;
  const by = p.credit.author ? `By ${p.credit.author}, from ${SOURCE_NAMES[p.pkg]}.` : `From ${SOURCE_NAMES[p.pkg]}.`;
  return `${p.text} ${by} ${tags}`;
}

// ---------- main ----------

const shapeOf = (w: number, h: number) => (w / h > 1.2 ? 'landscape' : h / w > 1.2 ? 'portrait' : 'square');

const extracted = Object.fromEntries((Object.keys(PACKAGES) as PackageName[]).map((name) => [name, fetchPackage(name, workDir)])) as Record<PackageName, Extracted>;
const planned = order(plan(extracted));

rmSync(OUT_DIR, { recursive: true, force: true });
mkdirSync(OUT_DIR, { recursive: true });
sharp.cache(false);

// Every description (and so every tag) is checked before any file is written.
const descriptions = new Map(planned.map((p) => [p, describe(p)]));
const used = new Set<string>();
const seenSources = new Map<string, string>();
const rows: Array<DemoImage & { original: string; crop: number | undefined }> = [];
for (const p of planned) {
  const digest = createHash('sha256').update(readFileSync(p.src)).digest('hex');
  const twin = seenSources.get(digest);
  if (twin) throw new Error(`"${p.title}" is the same file as "${twin}"`);
  seenSources.set(digest, p.title);
  let base = slug(p.title);
  for (let n = 2; used.has(base); n++) base = `${slug(p.title)}-${n}`;
  used.add(base);
  const out = await render(p, base);
  if (Math.max(out.width, out.height) < 300) console.warn(`  small: ${out.file} is ${out.width}×${out.height}`);
  rows.push({
    file: out.file,
    title: p.title,
    description: descriptions.get(p) as string,
    tags: p.tags,
    kind: p.kind,
    width: out.width,
    height: out.height,
    package: p.pkg,
    author: p.credit.author,
    license: p.credit.license,
    original: p.original,
    crop: p.crop,
  });
}

const catalog: DemoCatalog = {
  about: "The embedded demo's pictures, in seed order. Built by scripts/demo-images.ts; sources and licences in LICENSES.md.",
  images: rows.map(({ original: _original, crop: _crop, ...image }) => image),
};
writeFileSync(path.join(OUT_DIR, 'catalog.json'), `${JSON.stringify(catalog, null, 1)}\n`);
writeFileSync(path.join(OUT_DIR, 'LICENSES.md'), licensesMarkdown(rows, extracted));

// The composition, for the maintainer (and docs/operations.md#demo-data).
const count = (pick: (r: DemoImage) => string) => {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(pick(r), (counts.get(pick(r)) ?? 0) + 1);
  return [...counts]
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
};
const totalBytes = readdirSync(OUT_DIR).reduce((sum, file) => sum + statSync(path.join(OUT_DIR, file)).size, 0);
console.log(`${rows.length} pictures in ${path.relative(process.cwd(), OUT_DIR)}, ${(totalBytes / 1e6).toFixed(1)} MB with catalog and licences`);
console.log(`  kind: ${count((r) => r.kind)}`);
console.log(`  shape: ${count((r) => shapeOf(r.width, r.height))}`);
console.log(`  kind × shape: ${count((r) => `${r.kind}/${shapeOf(r.width, r.height)}`)}`);
console.log(`  package: ${count((r) => r.package)}`);
console.log(`  licence: ${count((r) => r.license)}`);
console.log(
  `  first 12: ${rows
    .slice(0, 12)
    .map((r) => `${r.title} (${r.kind}, ${shapeOf(r.width, r.height)})`)
    .join('; ')}`,
);
console.log(`  distinct tags: ${new Set(rows.flatMap((r) => r.tags)).size}`);
