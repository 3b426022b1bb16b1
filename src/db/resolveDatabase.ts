import { TradeledgerError } from '../errors.js';
import { ensureEmbeddedServer } from './ensureEmbeddedServer.js';
import type { EmbeddedServer } from './embeddedServer.js';
import { embeddedServerOptions } from './embeddedServerOptions.js';
import { withDefaultUser } from './withDefaultUser.js';
import { checkSslSettings, settleSslMode, withSslModeOf } from './sslMode.js';
import { createClient } from './pools.js';
import type { EmbeddedServerInput } from './embeddedServerOptions.js';

/** Where the data lives for this run. */
export interface ResolvedDatabase {
  url: string;
  /** The embedded server in use, or undefined when DATABASE_URL chose the server. */
  embedded: EmbeddedServer | undefined;
}

/** Options for {@link resolveDatabase}: the embedded server's settings plus a progress log. */
export interface ResolveDatabaseOptions extends EmbeddedServerInput {
  log?: (message: string) => void;
}

/**
 * Picks the database: `DATABASE_URL` when set, otherwise the embedded PostgreSQL, started on
 * demand and left running for the next command (see `ensureEmbeddedServer`). A DATABASE_URL's
 * SSL settings are checked here, and its `sslmode=prefer` or `allow` decided by trying
 * (src/db/sslMode.ts).
 *
 * @example
 * const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`${m}\n`) });
 * const db = createDb(url, { name: 'sync' });
 */
export async function resolveDatabase(options: ResolveDatabaseOptions = {}): Promise<ResolvedDatabase> {
  const env = options.env ?? process.env;
  const given = env.DATABASE_URL?.trim();
  if (given) {
    const hosts = /^postgres(?:ql)?:\/\/(?:[^@/?]*@)?([^/?]*,[^/?]*)/.exec(given)?.[1];
    if (hosts !== undefined) {
      throw new TradeledgerError('CONFIG_DATABASE_URL', `DATABASE_URL names several servers (${hosts}); tradeledger connects to one`, {
        kind: 'config', hint: 'Name the primary server alone (host:port), or put a proxy or pooler that follows the primary in front and name that.',
      });
    }
    if (!/^postgres(ql)?:\/\//.test(given) || !URL.canParse(given)) {
      throw new TradeledgerError('CONFIG_DATABASE_URL', 'DATABASE_URL is not a PostgreSQL URL', {
        kind: 'config',
        hint: `Use the form postgresql://user:password@host:5432/dbname, or unset DATABASE_URL to use the embedded server.${given.includes('@') ? ' A password holding / ? # or % must have them percent-encoded: %2F %3F %23 %25 (psql reads the URL the same way).' : ''}`,
      });
    }
    const url = withSslModeOf(withDefaultUser(given, env), env);
    checkSslSettings(url);
    return { url: await settleSslMode(url, connects), embedded: undefined };
  }
  const server = await ensureEmbeddedServer(embeddedServerOptions(options), options.log);
  return { url: server.url(), embedded: server };
}

/** Whether a session opens at `url` (settleSslMode's try), closed again at once. */
async function connects(url: string): Promise<boolean> {
  const client = createClient({ url, name: 'ssl-probe' });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
