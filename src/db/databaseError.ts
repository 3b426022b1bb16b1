import { TradeledgerError } from '../errors.js';
import { redactUrl } from './redactUrl.js';
import { tooManyConnectionsFix } from './connectionProblem.js';

interface PgLikeError { code?: string; message?: string }

/**
 * Turns a failure from pg (refused connection, bad password, missing database...) into a
 * TradeledgerError that names the server and says what to do. Already-translated errors pass
 * through unchanged.
 *
 * @example
 * try { await client.connect(); } catch (err) { throw databaseError(err, url); }
 */
export function databaseError(err: unknown, url: string, doing = 'connect to'): TradeledgerError {
  if (err instanceof TradeledgerError) return err;
  const e = (err ?? {}) as PgLikeError;
  const where = redactUrl(url);
  const base = e.message ?? String(err);
  // A pooler in front of PostgreSQL (PgBouncer before 1.20) refuses startup parameters it does
  // not track, such as `options` from DATABASE_URL or PGOPTIONS.
  const refusedParameter = /unsupported startup parameter: (\S+)/.exec(base)?.[1];
  const hint = refusedParameter !== undefined
    ? `A connection pooler in front of PostgreSQL (PgBouncer) refuses the startup parameter ${refusedParameter}: take it out of DATABASE_URL (and PGOPTIONS), or add it to the pooler's ignore_startup_parameters.`
    : hintFor(e.code);
  return new TradeledgerError('DB_ERROR', `could not ${doing} PostgreSQL at ${where}: ${base}`, {
    kind: 'database',
    hint,
    retryable: e.code === 'ECONNREFUSED' || e.code === '57P03',
    details: { pgCode: e.code },
    cause: err,
  });
}

function hintFor(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
      return 'Start that server, or unset DATABASE_URL to use the embedded PostgreSQL that tradeledger starts by itself.';
    case '28P01':
    case '28000':
      return 'Check the user and password in DATABASE_URL.';
    case '3D000':
      return 'Create that database (createdb NAME) or point DATABASE_URL at an existing one.';
    case '57P03':
      return 'The server is starting up or shutting down; retry in a few seconds.';
    case '53300':
      return tooManyConnectionsFix;
    default:
      return 'Check that DATABASE_URL points at a running PostgreSQL 15 or newer; run `tradeledger db status` for details.';
  }
}
