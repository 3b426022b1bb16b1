import { Command } from 'commander';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { migrate } from '../db/migrate.js';
import { TradeledgerError } from '../errors.js';
import { startPortal } from '../portal/startPortal.js';
import { createClient } from '../db/pools.js';

// Whether portal_users is empty (false when it cannot be read: the portal is up, and this is a hint).
async function noPortalUsers(url: string): Promise<boolean> {
  const client = createClient({ url, name: 'serve-users-hint' });
  try {
    await client.connect();
    return (await client.query('SELECT NOT EXISTS (SELECT 1 FROM portal_users) AS none')).rows[0].none === true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

interface ServeFlags { port?: string; host: string; trustProxy?: boolean | string; downloads: string; downloadQueue: string }

/**
 * `tradeledger serve`: the accountants' web portal on the same database, until Ctrl-C or SIGTERM.
 *
 * @example
 * tradeledger serve --port 8080 --host 127.0.0.1
 */
export function serveCommand(_setExit: (code: number) => void): Command {
  return new Command('serve')
    .description('Start the accountants\' web portal (users: tradeledger users add).')
    .option('--port <n>', 'TCP port (env TRADELEDGER_PORTAL_PORT; default 8080)')
    .option('--host <address>', 'address to listen on; keep 127.0.0.1 behind a TLS reverse proxy', '127.0.0.1')
    .option('--trust-proxy [hops]', 'behind reverse proxies (default 1): trust X-Forwarded-Proto/-Host and the address the outermost of them saw (Secure cookies, client addresses)')
    .option('--downloads <n>', 'downloads prepared at once; each holds 1 database connection (a gains download 2)', '4')
    .option('--download-queue <n>', 'downloads that may wait for one of those; the next is answered 503 with Retry-After', '16')
    .exitOverride()
    .addHelpText('after', '\nExample: tradeledger users add anna --role admin && tradeledger serve --port 8080')
    .action(async (flags: ServeFlags) => {
      const given = flags.port ?? process.env.TRADELEDGER_PORTAL_PORT ?? '8080';
      const port = /^\d{1,5}$/.test(given) ? Number(given) : NaN;
      if (!Number.isInteger(port) || port < 0 || port > 65535) {
        throw new TradeledgerError('PORTAL_BAD_FLAG', `${flags.port === undefined ? 'TRADELEDGER_PORTAL_PORT' : '--port'} "${given}" is not a port number`, { kind: 'config', hint: 'Use a number from 1 to 65535, e.g. --port 8080.' });
      }
      const hops = flags.trustProxy === undefined || flags.trustProxy === false ? 0 : flags.trustProxy === true ? 1 : /^[1-9]$/.test(flags.trustProxy) ? Number(flags.trustProxy) : NaN;
      if (Number.isNaN(hops)) {
        throw new TradeledgerError('PORTAL_BAD_FLAG', `--trust-proxy "${String(flags.trustProxy)}" is not a number of proxies`, { kind: 'config', hint: 'Give the number of reverse proxies in front of the portal, 1 to 9 (--trust-proxy alone means 1).' });
      }
      const count = (flag: string, given: string, min: number) => {
        if (!/^\d{1,4}$/.test(given) || Number(given) < min) {
          throw new TradeledgerError('PORTAL_BAD_FLAG', `${flag} "${given}" is not a number from ${min} to 9999`, { kind: 'config', hint: `e.g. ${flag} 4; see docs/operations.md for the database connections it takes.` });
        }
        return Number(given);
      };
      const downloads = { running: count('--downloads', flags.downloads, 1), waiting: count('--download-queue', flags.downloadQueue, 0) };
      const { url } = await resolveDatabase({ log: (m) => process.stderr.write(`${m}\n`) });
      await migrate(url);
      const portal = await startPortal({ databaseUrl: url, host: flags.host, port, trustProxy: hops, downloads });
      // A first start has no users: the sign-in page alone does not say that no one can pass it.
      if (await noPortalUsers(url)) {
        process.stderr.write('note: no portal users yet, so no one can sign in: add one with `tradeledger users add <name> --role admin` (it asks for the password; the same DATABASE_URL), then sign in\n');
      }
      process.stdout.write(`tradeledger portal at ${portal.url} (Ctrl-C to stop)\n`);
      await new Promise<void>((resolve) => {
        const stop = () => { process.off('SIGINT', stop); process.off('SIGTERM', stop); resolve(); };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      await portal.close();
    });
}
