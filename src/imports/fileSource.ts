import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { TradeledgerError } from '../errors.js';
import { systemErrorWords } from '../systemErrorWords.js';

/**
 * A file a user brought: its name and its bytes, read in chunks from the start each time
 * `chunks()` is called, so a file of any size is never held whole.
 */
export interface FileSource {
  readonly name: string;
  chunks(): AsyncIterable<Uint8Array>;
}

/**
 * Opens a file to import (checked readable now); an unreadable file is refused naming it.
 *
 * @example
 * const src = await fileSource('koinly.csv'); for await (const b of src.chunks()) ...
 */
export async function fileSource(file: string): Promise<FileSource> {
  const unreadable = (err: NodeJS.ErrnoException) => new TradeledgerError('IMPORT_FILE_UNREADABLE', `cannot read ${file}: ${systemErrorWords(err)}`, {
    kind: 'config', cause: err, hint: 'Check the path and that you may read the file.',
  });
  const handle = await open(file, 'r').catch((err: NodeJS.ErrnoException) => { throw unreadable(err); });
  try {
    if ((await handle.stat()).isDirectory()) throw unreadable(Object.assign(new Error('a directory'), { code: 'EISDIR' }));
  } finally {
    await handle.close();
  }
  return {
    name: path.basename(file),
    async *chunks() {
      const stream = createReadStream(file, { highWaterMark: 1 << 18 });
      try {
        for await (const chunk of stream) yield chunk as Buffer;
      } catch (err) {
        throw unreadable(err as NodeJS.ErrnoException);
      } finally {
        stream.destroy();
      }
    },
  };
}
