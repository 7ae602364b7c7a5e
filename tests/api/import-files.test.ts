import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MSG } from '../../contract/imports.ts';
import { parseTags } from '../../contract/tags.ts';
import { readArchive } from '../../backend/imports/archive-items.ts';
import { type ItemData, withTags } from '../../backend/imports/items.ts';
import { looksLikeNetscape, readNetscapeFile } from '../../backend/imports/netscape.ts';
import { isSafeEntryPath, looksLikeZip, openArchive } from '../../backend/imports/zip-archive.ts';
import { honestZip, rawEntry, rawZip } from '../support/zip-fixtures.ts';

// The import's file readers on their own (docs/import-export.md): what a bookmark file and a ZIP
// become, and which archives are refused before anything is inflated or kept.

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'import-files-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: Buffer | string): Promise<string> {
  const target = path.join(dir, name);
  await writeFile(target, content);
  return target;
}

async function netscapeItems(html: string): Promise<ItemData[]> {
  const items: ItemData[] = [];
  await readNetscapeFile(await file(`b-${Math.random()}.html`, html), async (batch) => void items.push(...batch), 2);
  return items;
}

const PINBACK = `<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks</H1>
<DL><p>
<DT><H3 GUID="1" ORIGLINK="https://www.pinterest.com/me/recipes/" PRIVATE="false">Recipes &amp; food</H3>
<DL><p>
<DT><A HREF="https://blog.example/pie" GUID="11" ORIGLINK="https://www.pinterest.com/pin/11/" IMAGE="https://i.pinimg.example/736x/pie.jpg" COLOR="#aa0000" AUTHOR="me" PRIVATE="false" ADD_DATE="1700000000">Apple pie, the best one #baking</A>
<DT><A HREF="https://blog.example/soup" ORIGLINK="https://www.pinterest.com/pin/12/" IMAGE="https://i.pinimg.example/736x/soup.jpg">Soup</A>
<DD>Warm soup for winter
</DL><p>
<DT><H3>Travel</H3>
<DL><p>
<DT><A HREF="https://travel.example/" TAGS="trips,sea">No picture here</A>
<DT><A HREF="https://travel.example/x" IMAGE="javascript:alert(1)">Bad image</A>
</DL><p>
<DT><A HREF="https://loose.example/" IMAGE="https://img.example/loose.png">${'Long title '.repeat(40)}</A>
</DL><p>`;

describe('Netscape bookmark files', () => {
  it('are recognised by their DOCTYPE or their shape, and nothing else is', () => {
    expect(looksLikeNetscape(PINBACK)).toBe(true);
    expect(looksLikeNetscape('\uFEFF  <!doctype netscape-bookmark-file-1>')).toBe(true);
    expect(looksLikeNetscape('<html><body><dl><dt><a href="x">x</a></dl></body></html>')).toBe(true);
    expect(looksLikeNetscape('just some text, renamed to bookmarks.html')).toBe(false);
    expect(looksLikeNetscape('<html><body><p>A page</p></body></html>')).toBe(false);
  });

  it('become items: boards from <H3>, image from IMAGE, source from HREF, <DD> as description, ADD_DATE kept', async () => {
    const items = await netscapeItems(PINBACK);
    expect(items.map((item) => item.title)).toEqual(['Apple pie, the best one #baking', 'Soup', 'No picture here', 'Bad image', expect.any(String)]);
    const [pie, soup, plain, bad, loose] = items as [ItemData, ItemData, ItemData, ItemData, ItemData];
    expect(pie).toMatchObject({
      boards: ['Recipes & food'],
      image: { url: 'https://i.pinimg.example/736x/pie.jpg' },
      sourceUrl: 'https://blog.example/pie',
      description: 'Apple pie, the best one #baking',
      createdAt: new Date(1700000000 * 1000).toISOString(),
    });
    expect(soup).toMatchObject({ boards: ['Recipes & food'], description: 'Warm soup for winter', createdAt: null });
    // No IMAGE (or one that is no picture address): its page's picture is taken; TAGS become #words.
    expect(plain).toMatchObject({ boards: ['Travel'], image: { page: 'https://travel.example/' }, description: 'No picture here\n#trips #sea' });
    expect(bad.image).toEqual({ page: 'https://travel.example/x' });
    expect(loose.boards).toEqual([]);
    expect([...loose.title].length).toBeLessThanOrEqual(200);
    // Keys: the pin's own page when the file names one, so the same pin in two files is one item.
    expect(new Set(items.map((item) => item.key)).size).toBe(items.length);
    expect((await netscapeItems(PINBACK)).map((item) => item.key)).toEqual(items.map((item) => item.key));
  });

  it('say who sees a pin when they carry PRIVATE (Shaarli, Pinback), and leave it to the import when not', async () => {
    const links = ['PRIVATE="1"', 'PRIVATE="true"', 'PRIVATE="0"', 'PRIVATE="false"', ''].map(
      (flag, n) => `<DT><A HREF="https://e.example/${n}" IMAGE="https://e.example/${n}.jpg" ${flag}>Link ${n}</A>`,
    );
    const items = await netscapeItems(`<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n${links.join('\n')}\n</DL><p>`);
    expect(items.map((item) => item.visibility)).toEqual(['private', 'private', 'public', 'public', undefined]);
  });
});

describe("tags given apart from a description (TAGS, an export's tags)", () => {
  it('are written into it in their stored form, so that the pin carries them', () => {
    const description = withTags('Lunch by the #Sea', ['sea', 'Trips', '#Café', 'c++', '2024', 'ＢＥＡＣＨ', 'trips', `a${'b'.repeat(50)}`]);
    // `sea` is there already; `c++`, digits only and 51 letters are no tags; fullwidth letters fold.
    expect(description).toBe('Lunch by the #Sea\n#trips #café #beach');
    expect(parseTags(description)).toEqual(['sea', 'trips', 'café', 'beach']);
    expect(withTags('', ['one'])).toBe('#one');
    expect(withTags('Nothing to add #one', ['ONE', '#one'])).toBe('Nothing to add #one');
  });

  it('stop at the tags a pin keeps', () => {
    const nineteen = Array.from({ length: 19 }, (_, i) => `#t${i}`).join(' ');
    expect(parseTags(withTags(nineteen, ['x', 'y', 'z']))).toHaveLength(20);
    expect(withTags(nineteen, ['x', 'y', 'z'])).toBe(`${nineteen}\n#x`);
  });
});

describe('ZIP archives', () => {
  it('are recognised by their first bytes', async () => {
    expect(looksLikeZip(await honestZip([{ name: 'a.txt', data: 'a' }]))).toBe(true);
    expect(looksLikeZip(Buffer.from('PK but not really'))).toBe(false);
  });

  it('refuse entry paths that leave their folder', () => {
    for (const bad of ['../evil.png', 'a/../../evil.png', '/etc/passwd', 'C:/Windows/x.png', 'c:x.png', 'a\\..\\b.png', '']) expect(isSafeEntryPath(bad), bad).toBe(false);
    for (const good of ['a.png', 'Board/a.png', 'x/y/z..png', '..a/b.png']) expect(isSafeEntryPath(good), good).toBe(true);
  });

  const refusedWith = async (zip: Buffer, message: string) => {
    const target = await file(`z-${Math.random()}.zip`, zip);
    const attempt = openArchive(target).then(async (opened) => {
      try {
        return await readArchive(opened);
      } finally {
        opened.close();
      }
    });
    await expect(attempt).rejects.toMatchObject({ status: 400, message });
  };

  it('refuse ../, absolute and drive-letter paths from the central directory', async () => {
    const png = Buffer.from('not really a png');
    await refusedWith(rawZip([rawEntry('ok.png', png), rawEntry('../evil.png', png)]), IMPORT_MSG.zipUnsafePath);
    await refusedWith(rawZip([rawEntry('/abs/evil.png', png)]), IMPORT_MSG.zipUnsafePath);
    await refusedWith(rawZip([rawEntry('C:/evil.png', png)]), IMPORT_MSG.zipUnsafePath);
  });

  it('refuse more than 10,000 entries before reading one', async () => {
    const entries = Array.from({ length: 10_001 }, (_, i) => rawEntry(`f${i}.png`, Buffer.from('x')));
    await refusedWith(rawZip(entries), IMPORT_MSG.zipTooManyEntries);
  });

  it('refuse a bomb from what its central directory declares: a 1 MB ZIP of entries sharing one body that inflate to 5 GB', async () => {
    // 1 GiB of zeros deflates to about 1 MB; five entries point at the same body.
    const body = rawEntry('zeros-0.png', Buffer.alloc(1), { declaredSize: 1024 ** 3 });
    const bomb = rawZip([body, ...[1, 2, 3, 4].map((n) => ({ ...body, name: `zeros-${n}.png`, sameAs: 0 }))]);
    await refusedWith(bomb, IMPORT_MSG.zipRatio);
  });

  it('refuse a ZIP that declares more than 2 GB in all', async () => {
    // Each entry within the ratio (1.1 MB declaring 100 MB), 25 of them sharing one body.
    const body = rawEntry('big-0.png', randomBytes(1_100_000), { declaredSize: 100 * 1024 * 1024 });
    await refusedWith(rawZip([body, ...Array.from({ length: 24 }, (_, i) => ({ ...body, name: `big-${i + 1}.png`, sameAs: 0 }))]), IMPORT_MSG.zipTooBig);
  });

  it('stop an entry that inflates to more than it declared, while inflating', async () => {
    // Declares 60 KB (under the ratio floor) and holds 20 MB of zeros.
    await refusedWith(rawZip([rawEntry('liar.png', Buffer.alloc(20 * 1024 * 1024), { declaredSize: 60 * 1024 })]), IMPORT_MSG.zipRatio);
  });

  it('without pinboard.json or any image are not recognised', async () => {
    await refusedWith(await honestZip([{ name: 'notes.txt', data: 'hello' }]), IMPORT_MSG.notRecognised);
  });

  it('of images become one item per image, folders as boards, pins.csv overriding', async () => {
    const zip = await honestZip([
      { name: 'Cats/sleepy_cat.jpg', data: 'jpeg bytes' },
      { name: 'Cats/cat-2.png', data: 'png bytes' },
      { name: 'loose.webp', data: 'webp bytes' },
      { name: '__MACOSX/Cats/._sleepy_cat.jpg', data: 'resource fork' },
      { name: 'pins.csv', data: 'file,title,description,source,board\nCats/cat-2.png,"Second, cat","Very #fluffy",https://cats.example/2,Best cats\nmissing.jpg,Gone,,,\n' },
    ]);
    const target = await file('images.zip', zip);
    const opened = await openArchive(target);
    const contents = await readArchive(opened).finally(() => opened.close());
    expect(contents.kind).toBe('images');
    expect(contents.items.map(({ title, boards, description, sourceUrl }) => ({ title, boards, description, sourceUrl }))).toEqual([
      { title: 'sleepy cat', boards: ['Cats'], description: '', sourceUrl: null },
      { title: 'Second, cat', boards: ['Best cats'], description: 'Very #fluffy', sourceUrl: 'https://cats.example/2' },
      { title: 'loose', boards: [], description: '', sourceUrl: null },
      { title: 'Gone', boards: [], description: '', sourceUrl: null },
    ]);
    expect(contents.items[3]?.image).toBeNull();
    // Each image is named by its entry's place in the archive, inflated only when its turn comes.
    expect(contents.items.slice(0, 3).map((item) => item.image)).toEqual(
      ['Cats/sleepy_cat.jpg', 'Cats/cat-2.png', 'loose.webp'].map((name) => ({ file: String(opened.entries.findIndex((entry) => entry.name === name)) })),
    );
  });
});
