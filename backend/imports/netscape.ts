import { createReadStream } from 'node:fs';
import { Parser } from 'htmlparser2';
import { isAllowedImageUrl } from '../../contract/urls.ts';
import { boardNameOf, descriptionOf, type ItemData, itemKey, sourceOf, timeFromSeconds, titleOf, withTags } from './items.ts';

// A Netscape bookmark file (docs/import-export.md): what Pinback writes from Pinterest, and what
// browsers, Shaarli, Karakeep and Linkwarden export.
//
//   <DT><H3 ADD_DATE="…">Board</H3>
//   <DL><p>
//     <DT><A HREF="source page" IMAGE="image address" ORIGLINK="pin page" ADD_DATE="…" TAGS="a,b">text</A>
//     <DD>description
//   </DL><p>
//
// Each <H3> opens a board of that name (the innermost one, for nested folders); each <A> is a pin:
// source = HREF, image = IMAGE, else the page's own picture (the HREF itself when it answers a
// picture, else its preview picture: docs/page-images.md), title = the link text cut to
// the title limit, description = the following <DD>, else the link text; ADD_DATE its creation time;
// PRIVATE (Shaarli's and Pinback's "1"/"true" or "0"/"false"), when present, who sees it.
//
// Read as a stream with htmlparser2's tolerant SAX parser: a file of 200 MB never sits in memory
// as a document tree (node-html-parser builds the whole tree first), and items go to the caller in
// batches as they are found.

/** Whether the first bytes of a file look like a bookmark file (the DOCTYPE browsers write, or its shape). */
export function looksLikeNetscape(head: string): boolean {
  const text = head
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 4096)
    .toLowerCase();
  if (text.startsWith('<!doctype netscape-bookmark-file')) return true;
  // Without the DOCTYPE (some exporters drop it): an HTML page that is a list of <DT> links.
  return /^<(!doctype html|html|meta|title|h1|dl)\b/.test(text) && text.includes('<dl') && /<dt>\s*<(a|h3)\b/.test(text);
}

interface OpenItem {
  href: string | undefined;
  image: string | undefined;
  origLink: string | undefined;
  addDate: string | undefined;
  tags: string | undefined;
  /** `PRIVATE="1"` / `"0"` (Shaarli, Pinback): its maker said who sees it. */
  private: string | undefined;
  text: string;
  dd: string | undefined;
  board: string | null;
}

/** Who sees the pin when the file says (docs/who-sees-what.md); else the import decides. */
function visibilityOf(flag: string | undefined): Pick<ItemData, 'visibility'> {
  const said = flag?.trim().toLowerCase();
  if (said === '1' || said === 'true') return { visibility: 'private' };
  if (said === '0' || said === 'false') return { visibility: 'public' };
  return {};
}

function toItem(open: OpenItem): ItemData {
  const text = open.text.trim();
  const dd = open.dd?.trim() ?? '';
  const sourceUrl = sourceOf(open.href);
  const image = open.image?.trim();
  const imageUrl = image && /^https?:/i.test(image) && isAllowedImageUrl(image) ? image : undefined;
  const title = titleOf(text || dd) || (sourceUrl ? new URL(sourceUrl).hostname : '') || 'Untitled';
  return {
    key: itemKey('netscape', open.origLink?.trim() || `${open.href ?? ''}\n${image ?? ''}`),
    label: text ? titleOf(text) : (open.href ?? image ?? 'untitled link'),
    title,
    description: descriptionOf(withTags(dd || text, open.tags?.split(/[,\s]+/) ?? [])),
    sourceUrl,
    // Without a picture of its own, the link's page gives one (the link itself when it is a picture).
    image: imageUrl ? { url: imageUrl } : sourceUrl ? { page: sourceUrl } : null,
    boards: open.board ? [open.board] : [],
    ...visibilityOf(open.private),
    createdAt: timeFromSeconds(open.addDate?.trim()),
  };
}

/** A link as its <A> tag opens it (its text and <DD> come after), in the board its folder names. */
function openItem(attribs: Record<string, string | undefined>, board: string | null): OpenItem {
  return {
    href: attribs.href,
    image: attribs.image,
    origLink: attribs.origlink,
    addDate: attribs.add_date,
    tags: attribs.tags,
    private: attribs.private,
    text: '',
    dd: undefined,
    board,
  };
}

/**
 * Reads the file at `path` and hands its items to `onBatch` in file order, `batchSize` at a time
 * (awaited before more is read). Answers how many items there were.
 */
export async function readNetscapeFile(path: string, onBatch: (items: ItemData[]) => Promise<void>, batchSize = 500): Promise<number> {
  const folders: Array<string | null> = [];
  let lastFolder: string | null = null;
  let h3Text: string | null = null;
  let item: OpenItem | undefined;
  let inLink = false;
  let inDd = false;
  let batch: ItemData[] = [];
  let count = 0;

  const board = () => [...folders].reverse().find((name) => name !== null) ?? null;
  const finish = () => {
    if (item) {
      batch.push(toItem(item));
      count += 1;
    }
    item = undefined;
    inLink = false;
    inDd = false;
  };

  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'a') {
          finish();
          item = openItem(attribs, board());
          inLink = true;
        } else if (name === 'h3') {
          finish();
          h3Text = '';
        } else if (name === 'dd') {
          if (item && !inLink && item.dd === undefined) {
            item.dd = '';
            inDd = true;
          }
        } else if (name === 'dt') {
          finish();
        } else if (name === 'dl') {
          finish();
          folders.push(lastFolder);
          lastFolder = null;
        }
      },
      ontext(text) {
        if (h3Text !== null) h3Text += text;
        else if (item && inLink) item.text += text;
        else if (item && inDd) item.dd += text;
      },
      onclosetag(name) {
        if (name === 'a') inLink = false;
        else if (name === 'h3' && h3Text !== null) {
          lastFolder = boardNameOf(h3Text) || null;
          h3Text = null;
        } else if (name === 'dl') {
          finish();
          folders.pop();
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );

  const flush = async () => {
    if (!batch.length) return;
    const ready = batch;
    batch = [];
    await onBatch(ready);
  };
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
    parser.write(chunk as string);
    if (batch.length >= batchSize) await flush();
  }
  parser.end();
  finish();
  await flush();
  return count;
}
