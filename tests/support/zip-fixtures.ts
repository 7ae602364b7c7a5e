import { crc32, deflateRawSync } from 'node:zlib';
import yazl from 'yazl';

// ZIPs for the import tests: honest ones made with yazl, and hostile ones yazl refuses to write
// (paths that leave their folder, sizes that lie, entries sharing one body), written here byte by
// byte from the format's own layout (APPNOTE 4.3.7, 4.3.12, 4.3.16).

/** A ZIP of the given files, made by yazl (folders from the names' slashes). */
export function honestZip(files: Array<{ name: string; data: Buffer | string }>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const file of files) zip.addBuffer(Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data), file.name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

export interface RawEntry {
  name: string;
  /** The entry's body as stored in the archive (deflated when `method` is 8). */
  body: Buffer;
  method: 0 | 8;
  crc: number;
  /** What the central directory claims it inflates to. */
  declaredSize: number;
  /** Share the local header and body of an earlier entry (an overlapping "bomb"). */
  sameAs?: number;
}

export function rawEntry(name: string, content: Buffer, options: { declaredSize?: number } = {}): RawEntry {
  return { name, body: deflateRawSync(content), method: 8, crc: crc32(content), declaredSize: options.declaredSize ?? content.length };
}

/** A ZIP written byte by byte: whatever its entries claim, true or not. */
export function rawZip(entries: RawEntry[]): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const entry of entries) {
    if (entry.sameAs !== undefined) {
      offsets.push(offsets[entry.sameAs] as number);
      continue;
    }
    const name = Buffer.from(entry.name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0800, 6);
    header.writeUInt16LE(entry.method, 8);
    header.writeUInt32LE(entry.crc >>> 0, 14);
    header.writeUInt32LE(entry.body.length, 18);
    header.writeUInt32LE(Math.min(entry.declaredSize, 0xfffffffe), 22);
    header.writeUInt16LE(name.length, 26);
    offsets.push(offset);
    parts.push(header, name, entry.body);
    offset += header.length + name.length + entry.body.length;
  }
  const directoryStart = offset;
  for (const [index, entry] of entries.entries()) {
    const source = entry.sameAs !== undefined ? (entries[entry.sameAs] as RawEntry) : entry;
    const name = Buffer.from(entry.name, 'utf8');
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(0x0800, 8);
    header.writeUInt16LE(source.method, 10);
    header.writeUInt32LE(source.crc >>> 0, 16);
    header.writeUInt32LE(source.body.length, 20);
    header.writeUInt32LE(Math.min(entry.declaredSize, 0xfffffffe), 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt32LE(offsets[index] as number, 42);
    parts.push(header, name);
    offset += header.length + name.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 8);
  end.writeUInt16LE(Math.min(entries.length, 0xffff), 10);
  end.writeUInt32LE(offset - directoryStart, 12);
  end.writeUInt32LE(directoryStart, 16);
  parts.push(end);
  return Buffer.concat(parts);
}
