/**
 * A PostgreSQL ErrorResponse message (protocol 3.0: 'E', its length, then S, C and M fields, each
 * NUL-ended, and a final NUL), as a server or a pooler sends it to refuse a startup: what the
 * stand-ins in front of the test server answer with.
 *
 * @example
 * socket.end(pgErrorResponse('28000', 'no pg_hba.conf entry for host "127.0.0.1", no encryption'));
 */
export function pgErrorResponse(code: string, message: string): Buffer {
  const fields = Buffer.concat([Buffer.from(`SFATAL\0C${code}\0M`, 'utf8'), Buffer.from(message, 'utf8'), Buffer.from('\0\0', 'utf8')]);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}
