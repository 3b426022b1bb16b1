import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { TradeledgerError } from '../errors.js';

/** A file a user brought: its name, its text and the SHA-256 of its bytes (the import key). */
export interface FileSource {
  readonly name: string;
  readonly text: string;
  readonly sha256: string;
}

/**
 * Reads a file to import; an unreadable file is refused naming it.
 *
 * @example
 * const src = await fileSource('eurofxref-hist.csv'); // src.sha256 === 'ab12...'
 */
export async function fileSource(file: string): Promise<FileSource> {
  const bytes = await readFile(file).catch((err: NodeJS.ErrnoException) => {
    throw new TradeledgerError('IMPORT_FILE_UNREADABLE', `cannot read ${file}: ${err.code ?? err.message}`, {
      kind: 'config', cause: err, hint: 'Check the path and that you may read the file.',
    });
  });
  return { name: path.basename(file), text: bytes.toString('utf8'), sha256: createHash('sha256').update(bytes).digest('hex') };
}
