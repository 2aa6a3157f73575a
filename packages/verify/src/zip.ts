import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

/**
 * A small zip reader (PKWARE APPNOTE): the central directory, read from the end of the file, lists the entries; each
 * entry is streamed from its place in the file and inflated as it is read, so an archive of any size is never held
 * in memory. Stored (0) and deflated (8) entries, and the Zip64 records a large archive needs.
 */
export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

const readUInt64 = (buffer: Buffer, at: number) => Number(buffer.readBigUInt64LE(at));

export async function readZipDirectory(path: string): Promise<ZipEntry[]> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const tailLength = Math.min(size, 65_557 + 20);
    const tail = Buffer.alloc(tailLength);
    await file.read(tail, 0, tailLength, size - tailLength);
    let end = -1;
    for (let i = tailLength - 22; i >= 0; i -= 1)
      if (tail.readUInt32LE(i) === 0x06054b50) {
        end = i;
        break;
      }
    if (end < 0) throw new Error(`${path} is not a zip archive (no end of central directory).`);
    let count = tail.readUInt16LE(end + 10);
    let directorySize = tail.readUInt32LE(end + 12);
    let directoryOffset = tail.readUInt32LE(end + 16);
    if (count === 0xffff || directoryOffset === 0xffffffff) {
      // Zip64: the locator just before the end record points to the Zip64 end record.
      const locator = end - 20;
      if (locator < 0 || tail.readUInt32LE(locator) !== 0x07064b50) throw new Error('Zip64 locator missing.');
      const record = Buffer.alloc(56);
      await file.read(record, 0, 56, readUInt64(tail, locator + 8));
      if (record.readUInt32LE(0) !== 0x06064b50) throw new Error('Zip64 end record missing.');
      count = readUInt64(record, 32);
      directorySize = readUInt64(record, 40);
      directoryOffset = readUInt64(record, 48);
    }
    const directory = Buffer.alloc(directorySize);
    await file.read(directory, 0, directorySize, directoryOffset);
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let i = 0; i < count; i += 1) {
      if (directory.readUInt32LE(at) !== 0x02014b50) throw new Error('Corrupt central directory.');
      const method = directory.readUInt16LE(at + 10);
      let compressedSize = directory.readUInt32LE(at + 20);
      let entrySize = directory.readUInt32LE(at + 24);
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      let localHeaderOffset = directory.readUInt32LE(at + 42);
      const name = directory.toString('utf8', at + 46, at + 46 + nameLength);
      // Zip64 extended information: the 64-bit values of the fields set to 0xffffffff, in this order.
      for (let e = at + 46 + nameLength; e < at + 46 + nameLength + extraLength;) {
        const id = directory.readUInt16LE(e);
        const length = directory.readUInt16LE(e + 2);
        if (id === 0x0001) {
          let field = e + 4;
          if (entrySize === 0xffffffff) {
            entrySize = readUInt64(directory, field);
            field += 8;
          }
          if (compressedSize === 0xffffffff) {
            compressedSize = readUInt64(directory, field);
            field += 8;
          }
          if (localHeaderOffset === 0xffffffff) localHeaderOffset = readUInt64(directory, field);
        }
        e += 4 + length;
      }
      entries.push({ name, method, compressedSize, size: entrySize, localHeaderOffset });
      at += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await file.close();
  }
}

/** An entry's content, inflated, as a stream of bytes. */
export async function openZipEntry(path: string, entry: ZipEntry): Promise<Readable> {
  const file = await open(path, 'r');
  const header = Buffer.alloc(30);
  try {
    await file.read(header, 0, 30, entry.localHeaderOffset);
  } finally {
    await file.close();
  }
  if (header.readUInt32LE(0) !== 0x04034b50) throw new Error(`Corrupt local header of ${entry.name}.`);
  const start = entry.localHeaderOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  if (entry.compressedSize === 0) {
    const { Readable: ReadableStream } = await import('node:stream');
    return ReadableStream.from([]);
  }
  const raw = createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: 1 << 20 });
  if (entry.method === 0) return raw;
  if (entry.method !== 8) throw new Error(`${entry.name}: compression method ${entry.method} is not supported.`);
  const inflate = createInflateRaw({ chunkSize: 1 << 20 });
  raw.on('error', (error) => inflate.destroy(error));
  return raw.pipe(inflate);
}
