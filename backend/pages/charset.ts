// An HTML answer's bytes as text: in the encoding its byte-order mark, its Content-Type or its
// <meta charset> names (in that order) when TextDecoder knows it, else UTF-8; bytes that are not
// valid in it become U+FFFD, never an error.

/** How far into the document a <meta charset> is looked for (browsers look at the first 1,024 bytes). */
const PRESCAN_BYTES = 4096;

function bomEncoding(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return undefined;
}

/** The charset parameter of a Content-Type. */
export function contentTypeCharset(contentType: string | null): string | undefined {
  const match = contentType === null ? null : /;\s*charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType);
  return match?.[1];
}

/** `<meta charset="…">` or `<meta http-equiv="Content-Type" content="…; charset=…">` near the start. */
function metaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.subarray(0, PRESCAN_BYTES)).toString('latin1');
  for (const [tag] of head.matchAll(/<meta\b[^>]*>/gi)) {
    const match = /charset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(tag);
    // A page cannot say it is UTF-16 in its own ASCII-compatible bytes: that means UTF-8 (as browsers read it).
    if (match?.[1]) return /^utf-?16/i.test(match[1]) ? 'utf-8' : match[1];
  }
  return undefined;
}

function decoderFor(label: string | undefined): TextDecoder | undefined {
  if (label === undefined) return undefined;
  try {
    return new TextDecoder(label.trim());
  } catch {
    return undefined;
  }
}

// Node's TextDecoder reads windows-1252 (which latin1 and iso-8859-1 name too) as ISO-8859-1: its
// bytes 0x80-0x9F come out as C1 controls instead of €, ‘, ’, “, ” and the rest.
const WINDOWS_1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (char) => WINDOWS_1252_HIGH[char.charCodeAt(0) - 0x80] as string);
}

export function decodeHtml(bytes: Uint8Array, contentType: string | null): string {
  const decoder = decoderFor(bomEncoding(bytes)) ?? decoderFor(contentTypeCharset(contentType)) ?? decoderFor(metaCharset(bytes)) ?? new TextDecoder('utf-8');
  return decoder.encoding === 'windows-1252' ? decodeWindows1252(bytes) : decoder.decode(bytes);
}
