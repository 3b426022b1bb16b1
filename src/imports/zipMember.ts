import { crc32, inflateRawSync } from 'node:zlib';
import { TradeledgerError } from '../errors.js';
import type { FileSource } from './fileSource.js';

// A ZIP file's first four bytes: a local file header's signature, "PK\3\4" (PKWARE's APPNOTE.TXT,
// section 4.3.7: https://pkware.cachefly.net/webdocs/casestudies/APPNOTE.TXT).
const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
// The ECB's eurofxref-hist.zip is well under 1 MB and its CSV under 10 MB; a CSV of imported
// transactions a few hundred MB. Larger ones are read unzipped, as a stream.
const MAX_ZIP_BYTES = 64 << 20;
const MAX_MEMBER_BYTES = 512 << 20;

const zipError = (code: 'IMPORT_ZIP_UNREADABLE' | 'IMPORT_ZIP_NO_CSV', message: string, hint: string, cause?: unknown) =>
  new TradeledgerError(code, `${message}; nothing was imported`, { kind: 'config', hint, cause });

/**
 * The file itself when it is not a ZIP archive; when it is (the ECB publishes its rates only as
 * eurofxref-hist.zip), the one CSV file it holds, read whole into memory and checked against its
 * CRC-32, named `<zip>/<member>`. Its text is what an import reads and hashes, so importing the
 * zip and then the CSV unzipped is the same file twice. A ZIP holding no CSV or several, an
 * encrypted or ZIP64 one, or a damaged one is refused naming what it found.
 *
 * @example
 * const src = await unzippedSource(await fileSource('eurofxref-hist.zip')); // src.name === 'eurofxref-hist.zip/eurofxref-hist.csv'
 */
export async function unzippedSource(src: FileSource): Promise<FileSource> {
  const parts: Buffer[] = [];
  let size = 0;
  let zip = false;
  for await (const chunk of src.chunks()) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (size === 0) {
      zip = bytes.length >= 4 && bytes.readUInt32LE(0) === LOCAL_HEADER;
      if (!zip) return src;
    }
    size += bytes.length;
    if (size > MAX_ZIP_BYTES) {
      throw zipError('IMPORT_ZIP_UNREADABLE', `${src.name} is a ZIP archive of more than ${MAX_ZIP_BYTES >> 20} MB`, 'Unzip it and import the CSV file inside.');
    }
    parts.push(bytes);
  }
  if (!zip) return src; // an empty file: the import says what is wrong with it
  const { name, bytes } = onlyCsv(src.name, Buffer.concat(parts));
  return {
    name: `${src.name}/${name}`,
    async *chunks() {
      for (let at = 0; at < bytes.length; at += 1 << 18) yield bytes.subarray(at, at + (1 << 18));
    },
  };
}

interface Entry { name: string; method: number; flags: number; crc: number; compressed: number; size: number; offset: number }

/** The one .csv member of a ZIP archive, inflated and checked. */
function onlyCsv(zipName: string, zip: Buffer): { name: string; bytes: Buffer } {
  const damaged = (what: string, cause?: unknown) => zipError('IMPORT_ZIP_UNREADABLE', `${zipName} is a damaged ZIP archive (${what})`,
    'Download it again, or unzip it with another tool and import the CSV file inside.', cause);
  const entries = centralDirectory(zip, damaged);
  // Folders, and the resource forks macOS adds to archives it makes, are not files of the archive's.
  const files = entries.filter((e) => !e.name.endsWith('/') && !e.name.startsWith('__MACOSX/'));
  const csvs = files.filter((e) => e.name.toLowerCase().endsWith('.csv'));
  if (csvs.length !== 1) {
    const listed = files.slice(0, 5).map((e) => e.name).join(', ') + (files.length > 5 ? `, and ${files.length - 5} more` : '');
    throw zipError('IMPORT_ZIP_NO_CSV', `${zipName} is a ZIP archive holding ${csvs.length === 0 ? 'no CSV file' : `${csvs.length} CSV files`}${files.length > 0 ? ` (${listed})` : ''}`,
      csvs.length === 0 ? 'Import the CSV file itself (the ECB\'s rates: eurofxref-hist.zip holds eurofxref-hist.csv).' : 'Unzip it and import each CSV file by itself.');
  }
  const e = csvs[0]!;
  if (e.flags & 1) throw zipError('IMPORT_ZIP_UNREADABLE', `${zipName} is an encrypted ZIP archive`, 'Unzip it with its password and import the CSV file inside.');
  if (e.size === 0xffffffff || e.compressed === 0xffffffff || e.offset === 0xffffffff) {
    throw zipError('IMPORT_ZIP_UNREADABLE', `${zipName} is a ZIP64 archive`, 'Unzip it and import the CSV file inside.');
  }
  if (e.size > MAX_MEMBER_BYTES) {
    throw zipError('IMPORT_ZIP_UNREADABLE', `${zipName}'s ${e.name} is ${Math.ceil(e.size / (1 << 20))} MB unzipped, more than ${MAX_MEMBER_BYTES >> 20} MB`, 'Unzip it and import the CSV file itself (read as a stream).');
  }
  if (e.offset + 30 > zip.length || zip.readUInt32LE(e.offset) !== LOCAL_HEADER) throw damaged(`no local header for ${e.name}`);
  const start = e.offset + 30 + zip.readUInt16LE(e.offset + 26) + zip.readUInt16LE(e.offset + 28);
  if (start + e.compressed > zip.length) throw damaged(`${e.name} is cut short`);
  const data = zip.subarray(start, start + e.compressed);
  let bytes: Buffer;
  if (e.method === 0) bytes = data;
  else if (e.method === 8) {
    try {
      bytes = inflateRawSync(data, { maxOutputLength: MAX_MEMBER_BYTES });
    } catch (err) {
      throw damaged(`${e.name} does not inflate`, err);
    }
  } else {
    throw zipError('IMPORT_ZIP_UNREADABLE', `${zipName} compresses ${e.name} by method ${e.method}, not stored or deflated`, 'Unzip it with another tool and import the CSV file inside.');
  }
  if (bytes.length !== e.size || crc32(bytes) !== e.crc) throw damaged(`${e.name} fails its CRC-32 check`);
  return { name: e.name, bytes };
}

// The central directory, found from the end-of-central-directory record in the archive's last
// 22 + 65,535 bytes (the record, then a comment of up to 65,535 bytes).
function centralDirectory(zip: Buffer, damaged: (what: string) => TradeledgerError): Entry[] {
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) { end = at; break; }
  }
  if (end < 0) throw damaged('no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== CENTRAL_HEADER) throw damaged('a central directory entry is missing');
    const nameLength = zip.readUInt16LE(at + 28);
    const flags = zip.readUInt16LE(at + 8);
    // Bit 11: the name is UTF-8; else code page 437, which agrees with it for the ASCII names used here.
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString(flags & 0x800 ? 'utf8' : 'latin1');
    entries.push({
      name, flags, method: zip.readUInt16LE(at + 10), crc: zip.readUInt32LE(at + 16), compressed: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24), offset: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}
