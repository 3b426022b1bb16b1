/**
 * The one base error of the project. Every layer throws it (or a subclass) so the CLI can print a
 * clear message and choose an exit code without knowing where the failure came from.
 *
 * It sits at the top of `src/` rather than inside a layer because every layer needs it and
 * DESIGN.md forbids `api`, `db` and `normalize` from importing each other.
 *
 * @example
 * throw new TradeledgerError('CONFIG_INVALID', 'accounts[0].apiKeyEnv is missing', {
 *   hint: 'Add apiKeyEnv: "MY_KEY_VAR" to the account in tradeledger.config.json',
 *   details: { file: 'tradeledger.config.json' },
 * });
 */
export type ErrorKind = 'config' | 'auth' | 'exchange' | 'network' | 'database' | 'data' | 'internal';

export interface TradeledgerErrorOptions {
  /** What the user should do about it. */
  hint?: string;
  /** Structured fields for JSON logs (never secrets). */
  details?: Record<string, unknown>;
  retryable?: boolean;
  kind?: ErrorKind;
  cause?: unknown;
}

export class TradeledgerError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly details: Record<string, unknown>;
  readonly retryable: boolean;
  readonly kind: ErrorKind;

  constructor(code: string, message: string, options: TradeledgerErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TradeledgerError';
    this.code = code;
    this.hint = options.hint;
    this.details = options.details ?? {};
    this.retryable = options.retryable ?? false;
    this.kind = options.kind ?? 'internal';
  }

  /** A JSON-safe view for log lines. */
  toJSON(): Record<string, unknown> {
    return { code: this.code, kind: this.kind, message: this.message, hint: this.hint, retryable: this.retryable, ...this.details };
  }
}

/** Process exit codes, documented in the README's exit-code table (keep the two in step). */
export const exitCodes = {
  ok: 0,
  /** An unexpected failure: a bug. The message says where to report it. */
  internal: 1,
  /** Bad flags, a bad config file, a bad key, passphrase or clock: nothing was attempted or it was refused. */
  configOrAuth: 2,
  /** The run finished but at least one stream failed; the others were saved. Rerun to resume. */
  partial: 3,
  /** PostgreSQL is unreachable, the database is missing or refused the login, or the connection was lost mid-run. Committed pages stay; rerun when it is back. */
  database: 4,
  /** The exchange could not be reached or kept failing before anything was synced (network, DNS, timeouts, 5xx). Rerun later. */
  exchange: 5,
} as const;

/**
 * The exit code for an error of a given kind: config and auth 2, database 4, network and
 * exchange 5, anything else 1 (a bug).
 *
 * @example
 * process.exitCode = exitCodeOf(new TradeledgerError('DB_ERROR', 'no server', { kind: 'database' })); // 4
 */
export function exitCodeOf(kind: ErrorKind): number {
  switch (kind) {
    case 'config': case 'auth': return exitCodes.configOrAuth;
    case 'database': return exitCodes.database;
    case 'network': case 'exchange': return exitCodes.exchange;
    default: return exitCodes.internal;
  }
}
