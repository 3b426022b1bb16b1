import type { IncomingMessage } from 'node:http';
import { ApiFailure } from './ApiFailure.js';

const maxBodyBytes = 1 << 20;

/**
 * The request body as text (empty for GET). Over 1 MiB is refused with 40017 rather than
 * buffered without bound.
 *
 * @example
 * const body = await readBody(req);
 */
export async function readBody(req: IncomingMessage): Promise<string> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    req.resume();
    return '';
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw ApiFailure.of('40017', `the body is larger than ${maxBodyBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
