import type { FileSource } from '../../src/imports/fileSource.js';

/**
 * A file as `fileSource` would give it, made in the test: its bytes, in chunks of `chunkSize`
 * (1 MB by default; small chunks test lines that straddle two reads).
 *
 * @example
 * await importFx(db, memoryFile('eurofxref-hist.csv', 'Date,USD,\n2025-01-03,1.03,\n'));
 */
export function memoryFile(name: string, content: string | Uint8Array, chunkSize = 1 << 20): FileSource {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  return {
    name,
    async *chunks() {
      for (let i = 0; i < bytes.length; i += chunkSize) yield bytes.subarray(i, i + chunkSize);
    },
  };
}
