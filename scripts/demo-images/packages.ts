// The pinned Debian packages of the demo set: downloading and extracting them, and reading each
// picture's author and licence from the package's own records (metadata.json, DEP-5 copyright,
// AUTHORS, docstrings). A picture none of them names stops the build.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGES, type PackageName } from './selection.ts';

export interface Extracted {
  root: string;
  deb: string;
  sha256: string;
}

/** Downloads (once) into `workDir` and extracts one pinned package; returns where its files are. */
export function fetchPackage(name: PackageName, workDir: string): Extracted {
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

export interface Credit {
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
export function plasmaCredit(folder: string): Credit {
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
export function plasmaImage(folder: string): string {
  const dir = path.join(folder, 'contents/images');
  const sized = readdirSync(dir)
    .map((file) => {
      const [w, h] = file
        .replace(/\.\w+$/, '')
        .split('x')
        .map(Number) as [number, number];
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
export function parseDep5(text: string): Dep5Stanza[] {
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
const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

/** A MATE background's authors and licence: the last DEP-5 stanza matching it, as the format says. */
export function mateCredit(stanzas: Dep5Stanza[], file: string): Credit {
  const stanza = stanzas.filter((s) => s.files.some((glob) => globToRegExp(glob).test(file))).at(-1);
  if (!stanza || !stanza.copyright.trim()) throw new Error(`mate-backgrounds: no copyright stanza names ${file}`);
  // "2008, Charles Barbin <barbinch@free.fr>" → "Charles Barbin"
  const names = stanza.copyright
    .split('\n')
    .map((line) =>
      line
        .replace(/<[^>]*>/g, '')
        .replace(/^[\d\s,-]+/, '')
        .replace(/[^\p{L}\p{N}\s."'()-]/gu, '')
        .trim(),
    )
    .filter(Boolean);
  return { author: names.join(', '), license: licenseId(stanza.license) };
}

/** GNOME's AUTHORS file: "- name*:" lines, then the holders' copyright line and the licence line. */
export function gnomeCredit(authorsText: string, file: string): Credit {
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
export function checkSkimageDocstring(fetchersSource: string, fetcher: string, phrase: string): void {
  const doc = new RegExp(`\\ndef ${fetcher}\\([^)]*\\):\\s*"""([\\s\\S]*?)"""`).exec(fetchersSource)?.[1];
  if (!doc?.replace(/\s+/g, ' ').includes(phrase)) throw new Error(`python3-skimage: ${fetcher}() no longer says "${phrase}"`);
}
