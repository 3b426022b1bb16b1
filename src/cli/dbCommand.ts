import type pg from 'pg';
import { Command } from 'commander';
import { exitCodes } from '../errors.js';
import { databaseStatus } from '../db/databaseStatus.js';
import { findEmbeddedServer } from '../db/embeddedServer.js';
import { embeddedServerOptions } from '../db/embeddedServerOptions.js';
import { migrate } from '../db/migrate.js';
import { redactUrl } from '../db/redactUrl.js';
import { defaultSchemaDir, renderFreshSchema, schemaDrift, writeSchema } from '../db/renderSchema.js';
import { resolveDatabase } from '../db/resolveDatabase.js';
import { stopEmbeddedServer } from '../db/stopEmbeddedServer.js';
import { addReader, hiddenFromReaders, listReaders, readerName, removeReader } from '../db/readerRoles.js';
import { createClient } from '../db/pools.js';
import { readNewPassword } from '../portal/readNewPassword.js';

interface DbFlags { dataDir?: string; port?: string }

/**
 * `tradeledger db migrate | url | status | stop`. Without DATABASE_URL these use the embedded
 * PostgreSQL, starting it when needed and leaving it running for later commands and psql
 * (`psql "$(tradeledger db url)"`); `db stop` ends it.
 *
 * @example
 * tradeledger db migrate && psql "$(tradeledger db url)" -c '\dt'
 */
export function dbCommand(setExit: (code: number) => void): Command {
  const db = new Command('db')
    .description('Manage the database: migrate, print its URL, show status, add analysts\' read-only logins, stop the embedded server.')
    .option('--data-dir <dir>', 'embedded PostgreSQL data folder (env TRADELEDGER_DATA_DIR; default .tradeledger/pg)')
    .option('--port <port>', 'embedded PostgreSQL port (env TRADELEDGER_PG_PORT; default 54329)')
    // Like the root program (addCommand does not copy its settings): bad usage reaches main()'s
    // error handling and exit codes instead of commander calling process.exit itself.
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', `
Without DATABASE_URL, an embedded PostgreSQL runs from the data folder on 127.0.0.1. The first
command that needs it starts it; it keeps running after the command ends, so later commands and
psql reuse it. \`tradeledger db stop\` stops it. With DATABASE_URL set, that server is used.`);
  const flags = (cmd: Command): DbFlags => cmd.optsWithGlobals<DbFlags>();
  const log = (m: string) => process.stderr.write(`tradeledger: ${m}\n`);

  db.command('migrate')
    .description('Apply the pending migrations in sql/migrations/, each in its own transaction.')
    .action(async (_o: unknown, cmd: Command) => {
      const { url } = await resolveDatabase({ ...flags(cmd), log });
      const plan = await migrate(url, { onApplied: (f) => process.stdout.write(`applied ${f.fileName}\n`) });
      const total = plan.applied.length + plan.pending.length;
      process.stdout.write(`${plan.pending.length} applied now, ${total} in total; ${redactUrl(url)} is up to date.\n`);
    });

  db.command('url')
    .description('Print the database URL (psql accepts it): psql "$(tradeledger db url)".')
    .action(async (_o: unknown, cmd: Command) => {
      const { url } = await resolveDatabase({ ...flags(cmd), log });
      process.stdout.write(`${url}\n`);
    });

  db.command('status')
    .description('Show the server, its version, applied and pending migrations, and table row counts.')
    .option('--json', 'print one JSON object')
    .action(async (o: { json?: boolean }, cmd: Command) => {
      const { url, embedded } = await resolveDatabase({ ...flags(cmd), log });
      const s = await databaseStatus(url);
      const server = embedded ? `embedded, pid ${embedded.pid}, data ${embedded.dataDir}` : 'from DATABASE_URL';
      if (s.migrationProblem) setExit(exitCodes.database);
      if (o.json) {
        process.stdout.write(`${JSON.stringify({
          url: redactUrl(url), server, version: s.serverVersion, database: s.database,
          applied: s.migrations?.applied.map((m) => ({ version: m.version, name: m.name, appliedAt: m.appliedAt })) ?? null,
          pending: s.migrations?.pending.map((m) => m.fileName) ?? null,
          migrationProblem: s.migrationProblem ? { message: s.migrationProblem.message, hint: s.migrationProblem.hint } : null,
          tables: Object.fromEntries(s.tables.map((t) => [t.name, t.rows])),
        })}\n`);
        return;
      }
      const lines = [`server:     ${redactUrl(url)} (${server})`, `version:    PostgreSQL ${s.serverVersion}`];
      if (s.migrations) {
        const last = s.migrations.applied.at(-1);
        lines.push(`migrations: ${s.migrations.applied.length} applied${last ? ` (latest ${String(last.version).padStart(4, '0')}_${last.name})` : ''}, ${s.migrations.pending.length} pending${s.migrations.pending.length ? `: ${s.migrations.pending.map((m) => m.fileName).join(', ')} (run tradeledger db migrate)` : ''}`);
      } else {
        lines.push(`migrations: REFUSED: ${s.migrationProblem?.message}`, `            fix: ${s.migrationProblem?.hint}`);
      }
      lines.push('tables:');
      const width = Math.max(0, ...s.tables.map((t) => t.name.length));
      for (const t of s.tables) lines.push(`  ${t.name.padEnd(width)}  ${t.rows.padStart(10)}`);
      if (s.tables.length === 0) lines.push('  (none: run tradeledger db migrate)');
      process.stdout.write(`${lines.join('\n')}\n`);
    });

  db.command('schema')
    .description('Write sql/schema/ and docs/schema.md from a scratch database migrated from nothing (npm run schema); --check only compares.')
    .option('--check', 'write nothing; exit 1 and list the files that differ from what the migrations give')
    .action(async (o: { check?: boolean }, cmd: Command) => {
      const { url } = await resolveDatabase({ ...flags(cmd), log });
      const rendered = await renderFreshSchema(url);
      if (o.check) {
        const drift = await schemaDrift(rendered);
        for (const d of drift) process.stdout.write(`${d.problem.padEnd(8)} ${d.path}\n`);
        process.stdout.write(drift.length ? `sql/schema/ is out of date (${drift.length} files): run npm run schema and commit the result\n` : 'sql/schema/ matches the migrations\n');
        if (drift.length) setExit(1);
        return;
      }
      const n = await writeSchema(rendered);
      process.stdout.write(`wrote ${n} files to ${defaultSchemaDir} and docs/schema.md\n`);
    });

  // Analysts' read-only roles (src/db/readerRoles.ts).
  const reader = db.command('reader')
    .description('Give analysts a read-only PostgreSQL login: every table and view but the portal\'s credentials, nothing writable.')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', `
Example: tradeledger db reader add analyst_anna     (the password is asked, or read from stdin's first line)
         psql "postgresql://analyst_anna@127.0.0.1:54329/tradeledger"
A reader can read the ledger, every history table, the views and the functions (ledger_valued),
but not the portal's credentials and security records:
  ${hiddenFromReaders.join(', ')}.
Every statement runs read-only. Migrations grant readers the tables they add. The database
user must have CREATEROLE (the embedded server's has).`);
  const withClient = async <T>(cmd: Command, work: (client: pg.Client, url: string) => Promise<T>): Promise<T> => {
    const { url } = await resolveDatabase({ ...flags(cmd), log });
    await migrate(url);
    const client = createClient({ url, name: 'db-reader' });
    await client.connect();
    try {
      return await work(client, url);
    } finally {
      await client.end().catch(() => {});
    }
  };
  reader.command('add')
    .description('add a reader, or set a new password for one (asked, or the first line of stdin)')
    .argument('<name>', 'the login name: lower-case letters, digits and _')
    .action(async (name: string, _o: unknown, cmd: Command) => {
      readerName(name);
      const password = await readNewPassword(name);
      await withClient(cmd, async (client, url) => {
        const { created } = await addReader(client, name, password);
        const login = new URL(url);
        login.username = name;
        login.password = '';
        process.stdout.write(`${created ? 'added' : 'updated'} reader ${name}: psql "${login.toString()}" (read-only; not ${hiddenFromReaders.join(', ')})\n`);
      });
    });
  reader.command('remove')
    .description('take a reader\'s access to this database away (and drop the login when nothing else uses it)')
    .argument('<name>', 'the reader')
    .action(async (name: string, _o: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const { dropped } = await removeReader(client, name);
        process.stdout.write(dropped ? `removed reader ${name} (login dropped)\n` : `removed reader ${name} from this database (the login stays: another database grants it something)\n`);
      });
    });
  reader.command('list')
    .description('list the readers of this database')
    .action(async (_o: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const readers = await listReaders(client);
        process.stdout.write(readers.length === 0 ? 'no readers yet: tradeledger db reader add <name>\n' : `${readers.join('\n')}\n`);
      });
    });

  db.command('stop')
    .description('Stop the embedded PostgreSQL of the data folder (a fast shutdown; committed data is kept).')
    .action(async (_o: unknown, cmd: Command) => {
      const options = embeddedServerOptions(flags(cmd));
      const running = await findEmbeddedServer(options);
      const stopped = await stopEmbeddedServer(options);
      process.stdout.write(stopped ? `stopped the embedded PostgreSQL${running ? ` on port ${running.port}` : ''} (${options.dataDir})\n` : `the embedded PostgreSQL in ${options.dataDir} is not running\n`);
    });

  return db;
}
