import { createHash } from 'node:crypto';
import type { FileSource } from '../../src/imports/fileSource.js';

/**
 * A file as `fileSource` would read it, made in the test.
 *
 * @example
 * await importFx(db, memoryFile('eurofxref-hist.csv', 'Date,USD,\n2025-01-03,1.03,\n'));
 */
export function memoryFile(name: string, text: string): FileSource {
  return { name, text, sha256: createHash('sha256').update(text).digest('hex') };
}
