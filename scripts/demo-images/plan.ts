// The demo set as the build plans it: every picture with its package, file, credit and tags, in
// seed order.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CLIPART_GROUPS, type ClipArt } from './clipart.ts';
import { checkSkimageDocstring, type Credit, type Extracted, gnomeCredit, mateCredit, parseDep5, plasmaCredit, plasmaImage } from './packages.ts';
import { FEATURED, FOLDER_TAGS, GNOME, MATE, type PackageName, type Picture, PLASMA, SKIMAGE } from './selection.ts';

export interface Planned {
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

export function plan(extracted: Record<PackageName, Extracted>): Planned[] {
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
      planned.push({
        group,
        title,
        text: null,
        tags: tags ?? folderTags(file),
        kind: 'drawing',
        pkg: 'openclipart-png',
        src,
        original: path.relative(extracted['openclipart-png'].root, src),
        credit: { author, license: 'CC-PDDC' },
        clipart: true,
      });
    }
  }
  return planned;
}

/** Seed order: FEATURED first, then one picture from each group in turn, so any prefix is varied. */
export function order(planned: Planned[]): Planned[] {
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
