// LICENSES.md of db/demo-images: each package's version, download and licence, and every file's
// original, author and licence.
import type { DemoImage } from '../../db/demo-catalog.ts';
import type { Extracted } from './packages.ts';
import { PACKAGES, type PackageName } from './selection.ts';

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
    "KDE Plasma wallpapers (https://invent.kde.org/plasma/plasma-workspace-wallpapers). Each wallpaper's author and licence are those of its metadata.json (SafeLanding: metadata.desktop).",
  'mate-backgrounds':
    "MATE desktop backgrounds (https://git.mate-desktop.org/mate-backgrounds/). Authors and licences per file as in the package's DEP-5 copyright file (/usr/share/doc/mate-backgrounds/copyright).",
  'gnome-backgrounds': "GNOME backgrounds (https://gitlab.gnome.org/GNOME/gnome-backgrounds). Authors and licence as in the package's AUTHORS file (/usr/share/doc/gnome-backgrounds/AUTHORS).",
  'python3-skimage': "Sample images of scikit-image (https://scikit-image.org). Each image's licence is stated in its loader's docstring (skimage/data/_fetchers.py).",
};

export function licensesMarkdown(rows: Array<DemoImage & { original: string; crop: number | undefined }>, extracted: Record<PackageName, Extracted>): string {
  const out: string[] = [
    '# Demo images: sources and licences',
    '',
    "These pictures are the demo data of Pinboard's embedded mode (`db/seed.ts` reads `catalog.json`).",
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
