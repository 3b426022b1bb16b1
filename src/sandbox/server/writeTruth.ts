import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { TruthRecord, World } from '../world.js';

/**
 * Streams the ground truth as JSON lines (one TruthRecord per line) with back-pressure, so a
 * million-record world dumps in constant memory. Does not end the stream.
 *
 * @example
 * await writeTruth(world, fs.createWriteStream('truth.jsonl'));
 */
export async function writeTruth(world: World, out: Writable, keep: (r: TruthRecord) => boolean = () => true): Promise<number> {
  let buffer = '';
  let count = 0;
  for (const record of world.truth()) {
    if (!keep(record)) continue;
    buffer += `${JSON.stringify(record)}\n`;
    count++;
    if (buffer.length >= 65_536) {
      const flushed = out.write(buffer);
      buffer = '';
      if (!flushed) await once(out, 'drain');
    }
  }
  if (buffer) out.write(buffer);
  return count;
}
