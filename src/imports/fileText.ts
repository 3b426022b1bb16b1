import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { badInput } from './badInput.js';
import type { FileSource } from './fileSource.js';

/** The SHA-256 of the bytes read so far; final once the text has been read to the end. */
export interface FileDigest {
  sha256(): string;
}

// A line longer than this is not a CSV line a person or an exchange export writes.
const MAX_LINE_BYTES = 8 << 20;
const NL = 0x0a;

/**
 * The file's text in pieces that each end at a line break (the last may not), checked as it
 * goes: bytes that are not UTF-8 and NUL characters are refused naming their line, never
 * turned into U+FFFD. Memory holds one chunk, whatever the file's size. `digest` gives the
 * SHA-256 of the file's bytes once the text has been read through.
 *
 * @example
 * const digest = { sha256: () => '' };
 * for await (const piece of fileText(src, digest)) parser.write(piece);
 */
export async function* fileText(src: FileSource, out: { digest?: FileDigest } = {}): AsyncGenerator<string> {
  const hash = createHash('sha256');
  let sha: string | undefined;
  out.digest = { sha256: () => sha ?? '' };
  let carry: Buffer = Buffer.alloc(0);
  let line = 1; // the line the next byte of `carry` is on
  let first = true;
  const check = (bytes: Buffer): void => {
    const atStart = first;
    first = false;
    if (isUtf8(bytes) && !bytes.includes(0)) return;
    // UTF-16, what a spreadsheet's "Unicode Text" saves: a byte-order mark, or every other byte NUL
    // in the first characters. It was told as "a NUL character", which named no way out.
    if (atStart && utf16(bytes)) throw badInput({ file: src.name, line: 1 }, 'the file is UTF-16 text (what a spreadsheet\'s "Unicode Text" saves), not UTF-8', 'Save it as "CSV UTF-8 (comma delimited)" instead, then import it again.');
    // Find the first bad line for the message (rare: the file is refused).
    let start = 0;
    let at = line;
    while (start <= bytes.length) {
      let end = bytes.indexOf(NL, start);
      if (end < 0) end = bytes.length;
      const one = bytes.subarray(start, end);
      if (one.includes(0)) throw badInput({ file: src.name, line: at }, 'a NUL character (byte 0x00)', 'Save the file as UTF-8 text; a CSV file holds no NUL characters.');
      if (!isUtf8(one)) throw badInput({ file: src.name, line: at }, 'bytes that are not UTF-8 text', 'Save the file as UTF-8 (in a spreadsheet: "CSV UTF-8"), then import it again.');
      start = end + 1;
      at++;
    }
    throw badInput({ file: src.name, line: at - 1 }, 'bytes that are not UTF-8 text', 'Save the file as UTF-8, then import it again.');
  };
  const countLines = (bytes: Buffer): number => {
    let n = 0;
    for (let i = bytes.indexOf(NL); i >= 0; i = bytes.indexOf(NL, i + 1)) n++;
    return n;
  };
  for await (const chunk of src.chunks()) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    hash.update(bytes);
    const cut = bytes.lastIndexOf(NL);
    if (cut < 0) {
      carry = carry.length ? Buffer.concat([carry, bytes]) : Buffer.from(bytes);
      if (carry.length > MAX_LINE_BYTES) throw badInput({ file: src.name, line }, `a line longer than ${MAX_LINE_BYTES >> 20} MB`, 'Check that this is the CSV file meant; its lines end with a line break.');
      continue;
    }
    const whole = carry.length ? Buffer.concat([carry, bytes.subarray(0, cut + 1)]) : bytes.subarray(0, cut + 1);
    check(whole);
    carry = Buffer.from(bytes.subarray(cut + 1));
    line += countLines(whole);
    yield whole.toString('utf8');
  }
  sha = hash.digest('hex');
  if (carry.length) {
    check(carry);
    yield carry.toString('utf8');
  }
}

/** A UTF-16 byte-order mark (either order), or at least four characters of UTF-16 text without one. */
function utf16(bytes: Buffer): boolean {
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) return true;
  if (bytes.length < 8) return false;
  const zeroAt = (odd: number) => [0, 2, 4, 6].every((i) => bytes[i + odd] === 0 && bytes[i + 1 - odd] !== 0);
  return zeroAt(0) || zeroAt(1);
}

/**
 * The SHA-256 of a file's bytes, read through once without decoding them: what tells an import
 * whether this very file was imported before, before it reads a line.
 *
 * @example
 * const sha = await fileSha256(src);
 */
export async function fileSha256(src: FileSource): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of src.chunks()) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * The whole text of a small file (an ECB rates file), checked as {@link fileText} checks it,
 * and the SHA-256 of its bytes.
 *
 * @example
 * const { text, sha256 } = await wholeText(await fileSource('eurofxref-hist.csv'));
 */
export async function wholeText(src: FileSource): Promise<{ text: string; sha256: string }> {
  const out: { digest?: FileDigest } = {};
  let text = '';
  for await (const piece of fileText(src, out)) text += piece;
  return { text, sha256: out.digest!.sha256() };
}
