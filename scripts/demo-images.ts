// `node scripts/demo-images.ts [--work DIR]`: builds the embedded demo's pictures, db/demo-images/
// (the image files, catalog.json and LICENSES.md), from Debian packages.
//
// A maintainer's tool, run by hand when the set changes; CI, `npm start` and the seed never run it:
// its output is committed, so the demo works offline. It needs this machine's apt-get (download
// only, nothing is installed), dpkg-deb and a reachable Debian mirror. The packages' versions are
// pinned (scripts/demo-images-selection.ts), the picks are a fixed list and sharp's output is
// deterministic, so a rebuild gives the same files.
//
// What it does: downloads the packages into DIR (default: the system's temp folder), extracts them,
// reads each picture's author and licence from the package's own records (metadata.json, DEP-5
// copyright, AUTHORS, docstrings) and refuses a picture it finds none for; scales every picture to
// at most 1200 px (photos to JPEG q80, drawings to WebP; clip art trimmed, padded and flattened on
// white); writes catalog.json in seed order and LICENSES.md; prints the set's composition.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp, { type Sharp } from 'sharp';
import type { DemoCatalog, DemoImage } from '../db/demo-catalog.ts';
import {
  CLIPART_GROUPS,
  type ClipArt,
  FEATURED,
  FOLDER_TAGS,
  GNOME,
  MATE,
  PACKAGES,
  type PackageName,
  type Picture,
  PLASMA,
  SKIMAGE,
} from './demo-images-selection.ts';

const MAX_SIDE = 1200;
const OUT_DIR = path.resolve(import.meta.dirname, '../db/demo-images');
const { values } = parseArgs({ options: { work: { type: 'string', default: path.join(os.tmpdir(), 'pinboard-demo-images') } } });
const workDir = path.resolve(values.work);

// ---------- packages ----------

interface Extracted {
  root: string;
  deb: string;
  sha256: string;
}

/** Downloads (once) and extracts one pinned package; returns where its files are. */
function fetchPackage(name: PackageName): Extracted {
  const version = PACKAGES[name];
  mkdirSync(workDir, { recursive: true });
  const findDeb = () => readdirSync(workDir).find((file) => file.startsWith(`${name}_`) && file.endsWith('.deb'));
  if (!findDeb()) {
    console.log(`downloading ${name}=${version}`);
    try {
      execFileSync('apt-get', ['download', `${name}=${version}`], { cwd: workDir, stdio: ['ignore', 'ignore', 'inherit'] });
    } catch {
      throw new Error(`apt-get download ${name}=${version} failed (is the version still on the mirror? try apt-get update)`);
    }
  }
  const deb = path.join(workDir, findDeb() as string);
  const root = path.join(workDir, name);
  if (!existsSync(root)) execFileSync('dpkg-deb', ['-x', deb, root]);
  const sha256 = createHash('sha256').update(readFileSync(deb)).digest('hex');
  return { root, deb: path.basename(deb), sha256 };
}

// ---------- licences, read from each package's own records ----------

interface Credit {
  author: string | null;
  license: string;
}

const LICENSE_IDS: Record<string, string> = {
  LGPLv3: 'LGPL-3.0',
  'CC-BY-SA-4.0': 'CC-BY-SA-4.0',
  'GPL-2+': 'GPL-2.0-or-later',
  'Creative Commons Attribution-ShareAlike 3.0': 'CC-BY-SA-3.0',
};
function licenseId(raw: string): string {
  const id = LICENSE_IDS[raw.trim()];
  if (!id) throw new Error(`unknown licence "${raw}": add it to LICENSE_IDS once checked`);
  return id;
}

/** A Plasma wallpaper's author and licence from its metadata.json (or older metadata.desktop). */
function plasmaCredit(folder: string): Credit {
  const json = path.join(folder, 'metadata.json');
  if (existsSync(json)) {
    const plugin = (JSON.parse(readFileSync(json, 'utf8')) as { KPlugin: { License: string; Authors?: Array<{ Name: string }> } }).KPlugin;
    return { author: plugin.Authors?.map((a) => a.Name).join(', ') || null, license: licenseId(plugin.License) };
  }
  const desktop = readFileSync(path.join(folder, 'metadata.desktop'), 'utf8');
  const field = (key: string) => new RegExp(`^${key}=(.*)$`, 'm').exec(desktop)?.[1]?.trim();
  const license = field('X-KDE-PluginInfo-License');
  if (!license) throw new Error(`${folder}: no licence in its metadata`);
  return { author: field('X-KDE-PluginInfo-Author') ?? null, license: licenseId(license) };
}

/** The wallpaper's image: its portrait variant if it has one (for shape variety), else the largest. */
function plasmaImage(folder: string): string {
  const dir = path.join(folder, 'contents/images');
  const sized = readdirSync(dir)
    .map((file) => {
      const [w, h] = file.replace(/\.\w+$/, '').split('x').map(Number) as [number, number];
      return { file, w, h };
    })
    .sort((a, b) => b.w * b.h - a.w * a.h || a.file.localeCompare(b.file));
  const pick = sized.find((s) => s.h > s.w) ?? sized[0];
  if (!pick) throw new Error(`${dir}: no images`);
  return path.join(dir, pick.file);
}

interface Dep5Stanza {
  files: string[];
  copyright: string;
  license: string;
}
/** The Files stanzas of a machine-readable (DEP-5) Debian copyright file. */
function parseDep5(text: string): Dep5Stanza[] {
  const stanzas: Dep5Stanza[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const fields = new Map<string, string>();
    let key = '';
    for (const line of block.split('\n')) {
      const match = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
      if (match) {
        key = (match[1] as string).toLowerCase();
        fields.set(key, match[2] as string);
      } else if (key && /^\s/.test(line)) fields.set(key, `${fields.get(key)}\n${line.trim()}`);
    }
    const files = fields.get('files');
    if (files) stanzas.push({ files: files.split(/\s+/).filter(Boolean), copyright: fields.get('copyright') ?? '', license: (fields.get('license') ?? '').split('\n')[0] as string });
  }
  return stanzas;
}
const globToRegExp = (glob: string) => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);

/** A MATE background's authors and licence: the last DEP-5 stanza matching it, as the format says. */
function mateCredit(stanzas: Dep5Stanza[], file: string): Credit {
  const stanza = stanzas.filter((s) => s.files.some((glob) => globToRegExp(glob).test(file))).at(-1);
  if (!stanza || !stanza.copyright.trim()) throw new Error(`mate-backgrounds: no copyright stanza names ${file}`);
  // "2008, Charles Barbin <barbinch@free.fr>" → "Charles Barbin"
  const names = stanza.copyright
    .split('\n')
    .map((line) => line.replace(/<[^>]*>/g, '').replace(/^[\d\s,-]+/, '').replace(/[^\p{L}\p{N}\s."'()-]/gu, '').trim())
    .filter(Boolean);
  return { author: names.join(', '), license: licenseId(stanza.license) };
}

/** GNOME's AUTHORS file: "- name*:" lines, then the holders' copyright line and the licence line. */
function gnomeCredit(authorsText: string, file: string): Credit {
  let prefixes: string[] = [];
  for (const line of authorsText.split('\n')) {
    const item = /^\s*-\s*(\S+?)\*?:\s*$/.exec(line);
    if (item) {
      prefixes.push((item[1] as string).toLowerCase());
      continue;
    }
    const holder = /Copyright ©\s*[\d\s,-]*(.+?)\s*(<.*)?$/.exec(line);
    if (holder && prefixes.some((prefix) => file.toLowerCase().startsWith(prefix))) {
      const rest = authorsText.slice(authorsText.indexOf(line) + line.length);
      const license = /Licensed under (.+?) License\./.exec(rest)?.[1];
      if (!license) throw new Error(`gnome-backgrounds: no licence line after ${line}`);
      return { author: (holder[1] as string).trim(), license: licenseId(license) };
    }
    if (holder) prefixes = [];
  }
  throw new Error(`gnome-backgrounds: AUTHORS does not name ${file}`);
}

/** scikit-image states each sample image's licence in its loader's docstring; check it still does. */
function checkSkimageDocstring(fetchersSource: string, fetcher: string, phrase: string): void {
  const doc = new RegExp(`\\ndef ${fetcher}\\([^)]*\\):\\s*"""([\\s\\S]*?)"""`).exec(fetchersSource)?.[1];
  if (!doc?.replace(/\s+/g, ' ').includes(phrase)) throw new Error(`python3-skimage: ${fetcher}() no longer says "${phrase}"`);
}

// ---------- the set ----------

interface Planned {
  group: string;
  title: string;
  text: string | null;
  tags: string[];
  kind: 'photo' | 'drawing';
  pkg: PackageName;
  src: string;
  /** Path of the original inside its package, for LICENSES.md. */
  original: string;
  credit: Credit;
  crop?: number;
  clipart: boolean;
}

function folderTags(file: string): string[] {
  let folder = path.dirname(file);
  while (folder !== '.') {
    const tags = FOLDER_TAGS[folder];
    if (tags) return tags;
    folder = path.dirname(folder);
  }
  throw new Error(`no tags for ${file}: give them in the selection`);
}

function plan(extracted: Record<PackageName, Extracted>): Planned[] {
  const planned: Planned[] = [];
  const picture = (group: string, pkg: PackageName, p: Picture, src: string, credit: Credit) =>
    planned.push({ group, title: p.title, text: p.text, tags: p.tags, kind: p.kind, pkg, src, original: path.relative(extracted[pkg].root, src), credit, crop: p.crop, clipart: false });
  const groupOf = (p: Picture) => (p.kind === 'photo' ? 'photos' : 'art');

  const plasmaRoot = path.join(extracted['plasma-workspace-wallpapers'].root, 'usr/share/wallpapers');
  for (const p of PLASMA) {
    const folder = path.join(plasmaRoot, p.source);
    picture(groupOf(p), 'plasma-workspace-wallpapers', p, plasmaImage(folder), plasmaCredit(folder));
  }

  const mateRoot = extracted['mate-backgrounds'].root;
  const mateStanzas = parseDep5(readFileSync(path.join(mateRoot, 'usr/share/doc/mate-backgrounds/copyright'), 'utf8'));
  for (const p of MATE) picture(groupOf(p), 'mate-backgrounds', p, path.join(mateRoot, 'usr/share/backgrounds/mate', p.source), mateCredit(mateStanzas, p.source));

  const gnomeRoot = extracted['gnome-backgrounds'].root;
  const gnomeAuthors = readFileSync(path.join(gnomeRoot, 'usr/share/doc/gnome-backgrounds/AUTHORS'), 'utf8');
  for (const p of GNOME) picture(groupOf(p), 'gnome-backgrounds', p, path.join(gnomeRoot, 'usr/share/backgrounds/gnome', p.source), gnomeCredit(gnomeAuthors, p.source));

  const skimageData = path.join(extracted['python3-skimage'].root, 'usr/lib/python3/dist-packages/skimage/data');
  const fetchers = readFileSync(path.join(skimageData, '_fetchers.py'), 'utf8');
  for (const p of SKIMAGE) {
    checkSkimageDocstring(fetchers, p.fetcher, p.licence);
    picture(groupOf(p), 'python3-skimage', p, path.join(skimageData, p.source), { author: p.author, license: p.license });
  }

  const clipartRoot = path.join(extracted['openclipart-png'].root, 'usr/share/openclipart/png');
  const copyright = readFileSync(path.join(extracted['openclipart-png'].root, 'usr/share/doc/openclipart-png/copyright'), 'utf8');
  if (!copyright.includes('Public Domain Dedication')) throw new Error('openclipart-png: the copyright file no longer dedicates the images to the public domain');
  for (const [group, entries] of Object.entries(CLIPART_GROUPS)) {
    for (const [file, title, author, tags] of entries as ClipArt[]) {
      const src = path.join(clipartRoot, file);
      planned.push({ group, title, text: null, tags: tags ?? folderTags(file), kind: 'drawing', pkg: 'openclipart-png', src, original: path.relative(extracted['openclipart-png'].root, src), credit: { author, license: 'CC-PDDC' }, clipart: true });
    }
  }
  return planned;
}

/** Seed order: FEATURED first, then one picture from each group in turn, so any prefix is varied. */
function order(planned: Planned[]): Planned[] {
  const byTitle = new Map(planned.map((p) => [p.title, p]));
  const first = FEATURED.map((title) => {
    const found = byTitle.get(title);
    if (!found) throw new Error(`FEATURED names "${title}", which is not in the set`);
    return found;
  });
  const queues = new Map<string, Planned[]>();
  for (const p of planned) if (!first.includes(p)) queues.set(p.group, [...(queues.get(p.group) ?? []), p]);
  const rest: Planned[] = [];
  while ([...queues.values()].some((queue) => queue.length)) for (const queue of queues.values()) if (queue.length) rest.push(queue.shift() as Planned);
  return [...first, ...rest];
}

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
    image = sharp(p.src).rotate().resize({ width: Math.round(height * p.crop), height, fit: 'cover', position: sharp.strategy.attention });
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

// ---------- LICENSES.md ----------

const cropLabel = (aspect: number) => (aspect === 1 ? 'cropped square' : aspect === 0.8 ? 'cropped to 4:5' : `cropped to ${aspect}:1`);

const LICENSE_TEXTS: Record<string, string> = {
  'CC-PDDC': 'Creative Commons Public Domain Dedication and Certification, https://creativecommons.org/licenses/publicdomain/',
  'LGPL-3.0': 'GNU Lesser General Public License v3, https://www.gnu.org/licenses/lgpl-3.0.html',
  'GPL-2.0-or-later': 'GNU General Public License v2 or later, https://www.gnu.org/licenses/old-licenses/gpl-2.0.html',
  'CC-BY-SA-3.0': 'Creative Commons Attribution-ShareAlike 3.0, https://creativecommons.org/licenses/by-sa/3.0/',
  'CC-BY-SA-4.0': 'Creative Commons Attribution-ShareAlike 4.0, https://creativecommons.org/licenses/by-sa/4.0/',
  'CC0-1.0': 'Creative Commons Zero 1.0 (public domain dedication), https://creativecommons.org/publicdomain/zero/1.0/',
  'public-domain': 'Public domain (NASA and SpaceX release these photographs into the public domain)',
  'no-known-copyright': 'No known copyright restrictions (Brooklyn Museum)',
};

const PACKAGE_NOTES: Record<PackageName, string> = {
  'openclipart-png':
    'Clip art from the Open Clip Art Library. The package\'s copyright file (/usr/share/doc/openclipart-png/copyright) dedicates every image to the public domain ("creative commons Public Domain Dedication … Copyright-Only Dedication (based on United States law) or Public Domain Certification"). Authors are as the file names give them (`title_author`); none is required.',
  'plasma-workspace-wallpapers':
    'KDE Plasma wallpapers (https://invent.kde.org/plasma/plasma-workspace-wallpapers). Each wallpaper\'s author and licence are those of its metadata.json (SafeLanding: metadata.desktop).',
  'mate-backgrounds':
    'MATE desktop backgrounds (https://git.mate-desktop.org/mate-backgrounds/). Authors and licences per file as in the package\'s DEP-5 copyright file (/usr/share/doc/mate-backgrounds/copyright).',
  'gnome-backgrounds':
    'GNOME backgrounds (https://gitlab.gnome.org/GNOME/gnome-backgrounds). Authors and licence as in the package\'s AUTHORS file (/usr/share/doc/gnome-backgrounds/AUTHORS).',
  'python3-skimage':
    'Sample images of scikit-image (https://scikit-image.org). Each image\'s licence is stated in its loader\'s docstring (skimage/data/_fetchers.py).',
};

function licensesMarkdown(rows: Array<DemoImage & { original: string; crop: number | undefined }>, extracted: Record<PackageName, Extracted>): string {
  const out: string[] = [
    '# Demo images: sources and licences',
    '',
    'These pictures are the demo data of Pinboard\'s embedded mode (`db/seed.ts` reads `catalog.json`).',
    '`scripts/demo-images.ts` took them from the Debian packages below and changed them as follows:',
    'every picture was scaled down to at most 1,200 px on its longest side and re-encoded (photos as',
    'JPEG, drawings as WebP); the clip art was trimmed of its empty margin, padded and flattened on',
    'white; the photos marked "cropped" were cropped as shown. Each keeps the licence it has',
    'in its package. The originals (the preferred form for making changes) are in those packages,',
    'from any Debian mirror or https://sources.debian.org.',
    '',
    '| Package | Version | Files | Licences |',
    '| --- | --- | ---: | --- |',
  ];
  const packages = Object.keys(PACKAGES) as PackageName[];
  for (const pkg of packages) {
    const mine = rows.filter((r) => r.package === pkg);
    out.push(`| ${pkg} | ${PACKAGES[pkg]} | ${mine.length} | ${[...new Set(mine.map((r) => r.license))].sort().join(', ')} |`);
  }
  out.push('', '## Licences', '');
  for (const id of [...new Set(rows.map((r) => r.license))].sort()) out.push(`- \`${id}\`: ${LICENSE_TEXTS[id] ?? id}`);
  for (const pkg of packages) {
    const mine = rows.filter((r) => r.package === pkg);
    out.push('', `## ${pkg} ${PACKAGES[pkg]}`, '', PACKAGE_NOTES[pkg], '', `Downloaded as \`${extracted[pkg].deb}\`, sha256 \`${extracted[pkg].sha256}\`.`, '');
    out.push('| File | Title | Original | Author | Licence |', '| --- | --- | --- | --- | --- |');
    for (const r of [...mine].sort((a, b) => a.file.localeCompare(b.file))) {
      const cell = (s: string) => s.replace(/\|/g, '\\|');
      out.push(`| ${r.file} | ${cell(r.title)} | \`${r.original}\`${r.crop ? ` (${cropLabel(r.crop)})` : ''} | ${cell(r.author ?? '—')} | ${r.license} |`);
    }
  }
  return `${out.join('\n')}\n`;
}

// ---------- main ----------

const shapeOf = (w: number, h: number) => (w / h > 1.2 ? 'landscape' : h / w > 1.2 ? 'portrait' : 'square');

const extracted = Object.fromEntries((Object.keys(PACKAGES) as PackageName[]).map((name) => [name, fetchPackage(name)])) as Record<PackageName, Extracted>;
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
  about: 'The embedded demo\'s pictures, in seed order. Built by scripts/demo-images.ts; sources and licences in LICENSES.md.',
  images: rows.map(({ original: _original, crop: _crop, ...image }) => image),
};
writeFileSync(path.join(OUT_DIR, 'catalog.json'), `${JSON.stringify(catalog, null, 1)}\n`);
writeFileSync(path.join(OUT_DIR, 'LICENSES.md'), licensesMarkdown(rows, extracted));

// The composition, for the maintainer (and the README).
const count = (pick: (r: DemoImage) => string) => {
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(pick(r), (counts.get(pick(r)) ?? 0) + 1);
  return [...counts].sort().map(([k, v]) => `${k} ${v}`).join(', ');
};
const totalBytes = readdirSync(OUT_DIR).reduce((sum, file) => sum + statSync(path.join(OUT_DIR, file)).size, 0);
console.log(`${rows.length} pictures in ${path.relative(process.cwd(), OUT_DIR)}, ${(totalBytes / 1e6).toFixed(1)} MB with catalog and licences`);
console.log(`  kind: ${count((r) => r.kind)}`);
console.log(`  shape: ${count((r) => shapeOf(r.width, r.height))}`);
console.log(`  kind × shape: ${count((r) => `${r.kind}/${shapeOf(r.width, r.height)}`)}`);
console.log(`  package: ${count((r) => r.package)}`);
console.log(`  licence: ${count((r) => r.license)}`);
console.log(`  first 12: ${rows.slice(0, 12).map((r) => `${r.title} (${r.kind}, ${shapeOf(r.width, r.height)})`).join('; ')}`);
console.log(`  distinct tags: ${new Set(rows.flatMap((r) => r.tags)).size}`);
