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
    : sslHint(e.code, base) ?? hintFor(e.code);
  return new TradeledgerError('DB_ERROR', `could not ${doing} PostgreSQL at ${where}: ${base}`, {
    kind: 'database',
    hint,
    retryable: e.code === 'ECONNREFUSED' || e.code === '57P03',
    details: { pgCode: e.code },
    cause: err,
  });
}

// Node's codes for a certificate it will not trust (https://nodejs.org/api/tls.html, "X509
// certificate error codes"): DEPTH_ZERO_SELF_SIGNED_CERT, SELF_SIGNED_CERT_IN_CHAIN,
// UNABLE_TO_VERIFY_LEAF_SIGNATURE, UNABLE_TO_GET_ISSUER_CERT_LOCALLY, CERT_HAS_EXPIRED, and
// ERR_TLS_CERT_ALTNAME_INVALID for a certificate of another host name.
const certificateCode = /CERT|^UNABLE_TO_/;

/**
 * The fix for a connection refused over SSL: a server without SSL asked for it, a certificate
 * the URL's sslmode checks and cannot trust, a server that takes only encrypted connections
 * asked for a plain one (sslmode's meanings: src/db/sslMode.ts).
 */
function sslHint(code: string | undefined, message: string): string | undefined {
  if (/server does not support SSL/i.test(message)) {
    return 'That server takes no SSL connections: turn ssl on in its postgresql.conf, or write sslmode=prefer (or disable) in DATABASE_URL.';
  }
  if (code !== undefined && certificateCode.test(code)) {
    return 'DATABASE_URL\'s sslmode (verify-full, verify-ca, or no sslmode with ssl parameters) checks the server\'s certificate, and it is not one this machine trusts: add sslrootcert=/path/to/ca.pem with the certificate your PostgreSQL provider publishes, or write sslmode=require to encrypt without checking who the server is.';
  }
  if (code === '28000' && /no encryption/i.test(message)) {
    return 'That server takes only encrypted connections: add sslmode=require (or verify-full) to DATABASE_URL.';
  }
  return undefined;
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
