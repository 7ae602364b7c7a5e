// libvips reads a GIF leniently: a file cut off after its first frame decodes without a warning
// (failOn cannot catch it), and browsers show what is there. A stored original must be whole, so
// a GIF's blocks are walked here: a file whose data ends before the trailer is truncated.
// (GIF89a, https://www.w3.org/Graphics/GIF/spec-gif89a.txt: header, screen descriptor, colour
// table, then extensions and images made of length-prefixed sub-blocks, then 0x3B.)

const EXTENSION = 0x21;
const IMAGE = 0x2c;
const TRAILER = 0x3b;

/** True when the GIF's block structure runs to its trailer; false when the bytes end first. */
export function gifIsComplete(bytes: Uint8Array): boolean {
  let at = 6 + 7; // "GIF89a", then the logical screen descriptor
  if (bytes.length < at) return false;
  at += colourTableSize(bytes[10] as number);
  // Skips a run of sub-blocks (a length byte, that many bytes, … a zero length); false when cut off.
  const skipSubBlocks = (): boolean => {
    for (;;) {
      if (at >= bytes.length) return false;
      const size = bytes[at] as number;
      at += 1 + size;
      if (size === 0) return true;
    }
  };
  for (;;) {
    if (at >= bytes.length) return false;
    const block = bytes[at] as number;
    if (block === TRAILER) return true;
    if (block === EXTENSION) {
      at += 2; // introducer, label
      if (!skipSubBlocks()) return false;
    } else if (block === IMAGE) {
      if (at + 10 > bytes.length) return false;
      at += 10 + colourTableSize(bytes[at + 9] as number);
      at += 1; // LZW minimum code size
      if (!skipSubBlocks()) return false;
    } else {
      // Not a block at all: past here decoders stop reading. Not a truncation; the decoder judges.
      return true;
    }
  }
}

/** The size of the colour table a packed field announces (none without its top bit). */
function colourTableSize(packed: number): number {
  return packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0;
}
