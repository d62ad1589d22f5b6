// Zip archives, read and written streamed: instance backups (shared/src/backup) and workspace
// export/import. yazl writes; yauzl reads by the central directory, so a reader can look at
// every entry's name and declared size before it decompresses a byte, and it refuses entries
// whose data does not match the size they declare (validateEntrySizes) and unsafe names
// (absolute paths, `..`, backslashes: strictFileNames).
import type { Readable } from "node:stream";
import yauzl from "yauzl";
import yazl from "yazl";

export { yazl };
export type ZipEntry = yauzl.Entry;

export interface ZipReader {
  entries: ZipEntry[];
  /** The entry's decompressed bytes as a stream (checked against its declared size). */
  open(entry: ZipEntry): Promise<Readable>;
  close(): void;
}

const OPTIONS: yauzl.Options = { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true, decodeStrings: true };

/** Reads the central directory; at most `maxEntries` entries, else it throws. */
async function readDirectory(zip: yauzl.ZipFile, maxEntries: number): Promise<ZipReader> {
  if (zip.entryCount > maxEntries) {
    zip.close();
    throw new ZipLimitError(`the archive has ${zip.entryCount} entries; at most ${maxEntries} are accepted`);
  }
  const entries = await new Promise<ZipEntry[]>((resolve, reject) => {
    const out: ZipEntry[] = [];
    zip.on("entry", (e: ZipEntry) => {
      out.push(e);
      zip.readEntry();
    });
    zip.on("end", () => resolve(out));
    zip.on("error", reject);
    zip.readEntry();
  }).catch((err: unknown) => {
    zip.close();
    throw err;
  });
  return { entries, open: (e) => zip.openReadStreamPromise(e), close: () => zip.close() };
}

export class ZipLimitError extends Error {
  override name = "ZipLimitError";
}

export async function openZipFile(file: string, maxEntries = 100_000): Promise<ZipReader> {
  return readDirectory(await yauzl.openPromise(file, OPTIONS), maxEntries);
}

export async function openZipBuffer(buf: Buffer, maxEntries = 100_000): Promise<ZipReader> {
  return readDirectory(await yauzl.fromBufferPromise(buf, OPTIONS), maxEntries);
}

/** A whole (small) entry as a buffer, refused past `max` bytes. */
export async function readEntry(zip: ZipReader, entry: ZipEntry, max: number): Promise<Buffer> {
  if (entry.uncompressedSize > max) throw new ZipLimitError(`${entry.fileName} is larger than ${max} bytes`);
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of await zip.open(entry)) {
    n += (c as Buffer).length;
    if (n > max) throw new ZipLimitError(`${entry.fileName} is larger than ${max} bytes`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}
