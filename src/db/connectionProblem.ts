import { TradeledgerError } from '../errors.js';

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
  for (const e of causeChain(err)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (sqlStates.test(code) || socketCodes.has(code))) return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && messages.test(message)) return true;
  }
  return false;
}

/**
 * What the server refused, for a raw pg error that says the session may not do what the command
 * does, not that its SQL is wrong: a write on a read-only session (25006: a standby,
 * default_transaction_read_only, an analysts' reader login), a table or schema the user has no
 * right to (42501: a user that is not the tables' owner), a statement the server's own
 * statement_timeout (57014) or lock_timeout (55P03) cancelled, or text a database not in UTF8
 * cannot hold (22P05). Undefined otherwise.
 *
 * @example
 * const refused = sessionRefusal(err); if (refused) console.error(refused.message, refused.hint);
 */
export function sessionRefusal(err: unknown): { message: string; hint: string } | undefined {
  for (const e of causeChain(err)) {
    const code = (e as { code?: unknown }).code;
    const said = String((e as { message?: unknown }).message ?? '');
    if (code === '25006') {
      return {
        message: `PostgreSQL refused a write: the database is read-only for this session, as on a standby server, with default_transaction_read_only, or for a \`tradeledger db reader\` login (25006 ${said})`,
        hint: 'This command writes to the database (gains stores its run; sync, import and classify store records): run it as the database\'s owner, not a reader login, against the primary server, or turn read-only off for the database. status and report only read.',
      };
    }
    // By code, not PostgreSQL's words, which follow the server's lc_messages (German, Japanese...):
    // 55P03 is only lock_timeout here (nothing asks NOWAIT), and 57014 not "at user request" (a
    // cancel, Ctrl-C's own included) is statement_timeout.
    if ((code === '57014' && !/user request/i.test(said)) || code === '55P03') {
      const setting = code === '55P03' ? 'lock_timeout' : 'statement_timeout';
      return {
        message: `PostgreSQL cancelled a statement at the server's ${setting} (${code} ${said})`,
        hint: `The database or its user sets ${setting}, and tradeledger's long statements (migrations, gains, reports, a sync's end-of-run counts) can outlast it. Turn it off for tradeledger's user (ALTER ROLE name SET ${setting} = 0) or in DATABASE_URL (?options=-c%20${setting}%3D0), then run the command again.`,
      };
    }
    if (code === '22P05') {
      return {
        message: `PostgreSQL cannot store a character in this database's encoding (22P05 ${said})`,
        hint: 'tradeledger needs a UTF8 database: the exchange\'s records and imported files hold any Unicode text. Move the data to one (pg_dump, then createdb --encoding=UTF8 --template=template0 NAME and restore) and point DATABASE_URL at it; nothing of the refused statement was stored.',
      };
    }
    if (code === '42501') {
      return {
        message: `PostgreSQL refused the database user a right this command needs (42501 ${said})`,
        hint: 'Run it as the user that owns the database and made its tables (the one tradeledger migrated with); a `tradeledger db reader` login only reads, for psql.',
      };
    }
  }
  return undefined;
}

/**
 * {@link sessionRefusal} as the error commands report (DB_REFUSED, a database error: exit 4), or
 * undefined when `err` is not such a refusal (a TradeledgerError is left to say its own words).
 *
 * @example
 * const code = err instanceof TradeledgerError ? err.code : refusalError(err)?.code ?? 'INTERNAL';
 */
export function refusalError(err: unknown): TradeledgerError | undefined {
  if (err instanceof TradeledgerError) return undefined;
  const refused = sessionRefusal(err);
  return refused === undefined ? undefined : new TradeledgerError('DB_REFUSED', refused.message, { kind: 'database', hint: refused.hint, cause: err });
}

// An error and the causes it wraps, five deep at most.
function* causeChain(err: unknown): Generator<object> {
  for (let e: unknown = err, depth = 0; e !== null && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) yield e;
}

/** How {@link tooManyConnections} words begin, in every place that tells it (the sync's run summary finds them by it). */
export const tooManyConnectionsSaid = 'PostgreSQL refused another connection';

/** What to do about {@link tooManyConnections}: the sync's own count, and the two limits. */
export const tooManyConnectionsFix = 'The server, or this user\'s CONNECTION LIMIT, allows fewer connections than tradeledger opens at once (a sync: min(20, sync.concurrency + 2) + 3, 23 by default). Raise max_connections or the limit (ALTER ROLE name CONNECTION LIMIT -1), or lower sync.concurrency in the config file; then run it again (a sync resumes where it stopped).';

/**
 * The words for a server that refused a new connection for want of room (53300: max_connections,
 * or the user's CONNECTION LIMIT), which pg reports like a lost connection; nothing restarted,
 * and the fix differs. Undefined for any other error.
 *
 * @example
 * const crowded = tooManyConnections(err); if (crowded) console.error(crowded.said, crowded.fix);
 */
export function tooManyConnections(err: unknown): { said: string; fix: string } | undefined {
  for (const e of causeChain(err)) {
    if ((e as { code?: unknown }).code === '53300') return { said: `${tooManyConnectionsSaid} (53300 ${String((e as { message?: unknown }).message ?? '')})`, fix: tooManyConnectionsFix };
  }
  return undefined;
}
