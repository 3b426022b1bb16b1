import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';

/**
 * Reads a file while another writer is still appending to it, and ends once `finished` resolves
 * and every byte has been read; a rejected `finished` fails the stream. The disk is the buffer
 * between a fast writer and a slow reader, so memory stays flat, and the first bytes go out as
 * soon as they are written (a proxy in between sees data long before a year's file is complete).
 *
 * `file` may be a promise of the path (known once the writer starts), and `renamedTo` the name
 * the writer gives the file when it is complete: a file already renamed before the first read is
 * read there (an open handle keeps reading across the rename).
 *
 * @example
 * const done = streamQueryToCsv(client, query, file);
 * followFile(file, done).pipe(response);
 */
export function followFile(file: string | Promise<string>, finished: Promise<unknown>, pollMs = 25, renamedTo?: string): Readable {
  let handle: FileHandle | undefined;
  let position = 0;
  let state: 'writing' | 'done' | Error = 'writing';
  finished.then(() => { state = 'done'; }, (err: unknown) => { state = err instanceof Error ? err : new Error(String(err)); });
  const wait = () => new Promise((resolve) => setTimeout(resolve, pollMs));
  return new Readable({
    highWaterMark: 256 * 1024,
    async read(size) {
      try {
        for (;;) {
          if (state instanceof Error) throw state;
          // Read the state before reading the file: if the writer was done before this read
          // found no bytes, there will be none.
          const doneBefore = state === 'done';
          if (!handle) {
            const path = await file;
            handle = await open(path, 'r').catch(async (err: NodeJS.ErrnoException) => {
              if (err.code !== 'ENOENT') throw err;
              if (renamedTo !== undefined) {
                const renamed = await open(renamedTo, 'r').catch(() => undefined);
                if (renamed) return renamed;
              }
              if (!doneBefore) return undefined;
              throw err;
            });
            if (!handle) { await wait(); continue; }
          }
          const buffer = Buffer.allocUnsafe(Math.max(size, 64 * 1024));
          const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
          if (bytesRead > 0) {
            position += bytesRead;
            this.push(buffer.subarray(0, bytesRead));
            return;
          }
          if (doneBefore) { this.push(null); return; }
          await wait();
        }
      } catch (err) {
        this.destroy(err as Error);
      }
    },
    async destroy(err, callback) {
      await handle?.close().catch(() => {});
      callback(err);
    },
  });
}
