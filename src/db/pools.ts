import pg from 'pg';
import { pgConnectionString } from './sslMode.js';

/**
 * Every PostgreSQL connection tradeledger opens is made here: pools by {@link createPool}, single
 * clients by {@link createClient}. Each is named (`application_name` = `tradeledger-<name>`, so
 * `pg_stat_activity` tells the CLI, the portal, a download, the worker's pools apart), sized by
 * its caller, and given the one error listener.
 *
 * Why every connection needs that listener: a session the server ends (a restart: 57P01, a
 * terminated backend, a lost network) makes its client emit 'error'; with no listener Node
 * crashes the process ("Unhandled 'error' event"). A pool hears it only for idle clients, so
 * every client the pool connects gets its own listener too, covering one held between queries
 * (the sync's lock, a transaction waiting on the exchange). The listener only notes the error:
 * pg drops a broken idle client from its pool, and the next query on a held one fails and
 * reports it as that command's error (through `src/db/databaseError.ts`).
 *
 * Every session is also set to UTC and the ISO style as it opens ({@link sessionSettings}),
 * whatever the server is set to, and the URL's `sslmode` means what libpq says it means
 * (src/db/sslMode.ts).
 */

/** What a connection is for, shown as `tradeledger-<name>`; see {@link applicationName}. */
export interface ConnectionName {
  /** Short lower-case words joined by '-', e.g. `portal`, `portal-download`, `worker-registry`. */
  name: string;
  /** Told of a connection's error (idle or held) after the listener kept it from crashing the process; default: nothing. */
  onError?: (error: Error) => void;
}

/** Options of {@link createPool}. */
export interface PoolSettings extends ConnectionName {
  url: string;
  /** Most connections the pool opens at once (the caller's connection budget). */
  max: number;
}

/** Options of {@link createClient}. */
export interface ClientSettings extends ConnectionName {
  url: string;
}

// PostgreSQL keeps NAMEDATALEN - 1 = 63 bytes of application_name and cuts the rest silently.
const maxApplicationName = 63;

/**
 * The application_name of a connection named `name`: `tradeledger-<name>`, at most 63 bytes
 * (what PostgreSQL keeps), so a filter on the full name in pg_stat_activity matches.
 *
 * @example
 * applicationName('portal-download'); // 'tradeledger-portal-download'
 */
export function applicationName(name: string): string {
  if (!/^[a-z0-9][a-z0-9_.:()-]*$/.test(name)) throw new Error(`connection name "${name}": lower-case letters, digits and - _ . : ( ) only`);
  const full = `tradeledger-${name}`;
  return full.length > maxApplicationName ? full.slice(0, maxApplicationName) : full;
}

/**
 * A pg pool: named, sized, with the one error listener on the pool and on each of its clients.
 * `numeric` and `bigint` come back as strings (pg's default, kept: amounts never become JS
 * numbers). The caller ends it (`pool.end()`).
 *
 * @example
 * const pool = createPool({ url, name: 'users', max: 2 }); try { ... } finally { await pool.end(); }
 */
export function createPool(settings: PoolSettings): pg.Pool {
  if (!Number.isInteger(settings.max) || settings.max < 1) throw new Error(`pool ${settings.name}: max must be a whole number of connections, got ${settings.max}`);
  const pool = new pg.Pool({
    connectionString: pgConnectionString(settings.url), max: settings.max, application_name: applicationName(settings.name),
    // pg-pool awaits this before it hands the new client out (its types say void).
    onConnect: ((client: pg.PoolClient) => client.query(sessionSettings)) as unknown as (client: pg.ClientBase) => void,
  });
  const onError = errorListener(settings);
  pool.on('error', onError);
  pool.on('connect', (client) => { client.on('error', onError); });
  return pool;
}

/**
 * One pg client (not connected yet), named, with the one error listener. For a session of its
 * own: COPY, a cursor, a lock, a statement the caller may cancel. The caller connects and ends it.
 *
 * @example
 * const client = createClient({ url, name: 'migrate' }); await client.connect(); try { ... } finally { await client.end(); }
 */
export function createClient(settings: ClientSettings): pg.Client {
  const client = new pg.Client({ connectionString: pgConnectionString(settings.url), application_name: applicationName(settings.name) });
  client.on('error', errorListener(settings));
  // Settled as the pool's clients are: connect() resolves once the session is set.
  const connect = client.connect.bind(client) as () => Promise<pg.Client>;
  (client as unknown as { connect: () => Promise<pg.Client> }).connect = async () => {
    await connect();
    await client.query(sessionSettings);
    return client;
  };
  return client;
}

/**
 * What every session is set to as it opens, whatever the server, the database or the user
 * default to: UTC, the ISO date style, the postgres interval style and standard strings.
 *
 * Why: a server's `timezone` is its sessions' default, and initdb takes it from the machine it
 * runs on (an embedded server set up in India is at +05:30). The SQL here means UTC wherever a
 * time is turned into a day or an hour, most of it with `AT TIME ZONE 'UTC'` or `date_bin`, but
 * a session in another zone also changes `date_trunc`, `::date`, `current_date` and the text of
 * every `timestamptz`; in a zone off the whole hour (India, Nepal, Iran, South Australia,
 * Newfoundland) `date_trunc('hour', ts)` lands on the half hour. A report's own `--tz` stays
 * explicit (`AT TIME ZONE $tz`). node-postgres reads times only in the ISO style (a server set
 * to `SQL, DMY` gave null), and text made from a time or an interval must not change with the
 * styles. The literals built here (sqlText.ts) double quotes and leave backslashes as they are,
 * which a server with standard_conforming_strings off would read as escapes.
 *
 * A `SET` after connecting, not `-c` startup options: PgBouncer before 1.20 refuses an
 * `options` startup parameter outright ("unsupported startup parameter"), while it tracks a
 * `SET` of these per client. It runs after the user's own options (the URL's, PGOPTIONS), so it
 * wins over them.
 */
export const sessionSettings = "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, MDY'; SET IntervalStyle = 'postgres'; SET standard_conforming_strings = on";

/**
 * One client of its own to the database a pool reaches, for a second session when the pool has
 * too few connections to give one (a pool of one), or undefined when the pool knows no URL.
 *
 * @example
 * const own = sidecarClient(pool, 'import-lookup'); if (own) await own.connect();
 */
export function sidecarClient(pool: pg.Pool, name: string): pg.Client | undefined {
  const url = (pool.options as { connectionString?: string }).connectionString;
  return url === undefined ? undefined : createClient({ url, name });
}

function errorListener(settings: ConnectionName): (error: Error) => void {
  const told = settings.onError;
  return (error) => {
    if (told === undefined) return;
    try {
      told(error);
    } catch {
      // A listener that throws would crash the process just the same.
    }
  };
}
