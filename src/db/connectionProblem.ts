// SQLSTATEs that mean "the server or the session went away or cannot be used", not "this query
// is wrong": class 08 (connection exception), 57P01-57P03 (admin/crash shutdown, starting up),
// 3D000 (no such database), 28000/28P01 (login refused), 53300 (too many connections),
// 55000 when a database is not accepting connections.
const sqlStates = /^(08\d\d\d|57P0[123]|3D000|28000|28P01|53300)$/;
const socketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);
// pg reports a socket that closed under it with these messages and no code.
const messages = /Connection terminated|Client has encountered a connection error|not queryable|terminating connection|Connection ended unexpectedly|is not currently accepting connections/i;

/**
 * Whether an error from pg means the database connection failed or was lost (a restart, a
 * network cut, a missing database) rather than a problem with the query itself. The sync uses
 * it to fail a run as a database problem instead of a bug.
 *
 * @example
 * try { await db.selectFrom('spot_fills').execute(); } catch (e) { if (isConnectionProblem(e)) ... }
 */
export function isConnectionProblem(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e !== null && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (sqlStates.test(code) || socketCodes.has(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && messages.test(message)) return true;
  }
  return false;
}
