import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodes, TradeledgerError } from '../../src/errors.js';
import { resolveDatabase } from '../../src/db/resolveDatabase.js';
import { runCli } from '../support/runCli.js';

describe('resolveDatabase', () => {
  it('uses DATABASE_URL when set, filling in the user as psql would', async () => {
    const r = await resolveDatabase({ env: { DATABASE_URL: 'postgres://127.0.0.1:5432/test', PGUSER: 'analyst' } });
    expect(r).toEqual({ url: 'postgres://analyst@127.0.0.1:5432/test', embedded: undefined });
    const given = await resolveDatabase({ env: { DATABASE_URL: 'postgresql://me:pw@db.example:6543/books' } });
    expect(given.url).toBe('postgresql://me:pw@db.example:6543/books');
  });

  it('rejects a DATABASE_URL that is not a PostgreSQL URL, with the expected form as the fix', async () => {
    for (const bad of ['mysql://x/y', 'not a url', 'http://127.0.0.1:5432/test']) {
      const err = await resolveDatabase({ env: { DATABASE_URL: bad } }).then(() => undefined, (e: unknown) => e);
      expect(err, bad).toBeInstanceOf(TradeledgerError);
      expect((err as TradeledgerError).kind).toBe('config');
      expect((err as TradeledgerError).hint).toContain('postgresql://user:password@host:5432/dbname');
    }
  });
});

// The embedded server's data folder is .tradeledger/pg under the folder a command runs in. A
// scheduler starts a command in / (systemd without WorkingDirectory=) or a folder it may not
// write; that was "This is a bug" (EACCES from mkdir '/.tradeledger'), with no way round named.
describe('an embedded data folder that cannot be made', () => {
  it('a file where a folder must be is named, with the fix, and left as it was', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'tl-datadir-'));
    try {
      await writeFile(path.join(root, '.tradeledger'), 'not a folder\n');
      const err = await resolveDatabase({ env: {}, cwd: root }).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(TradeledgerError);
      expect((err as TradeledgerError).code).toBe('DB_DATA_DIR');
      expect((err as TradeledgerError).message).toBe(`cannot make the embedded PostgreSQL's data folder ${root}/.tradeledger/pg: ${root}/.tradeledger is a file, where a folder must be`);
      expect((err as TradeledgerError).hint).toContain(`Move or rename ${root}/.tradeledger`);

      await mkdir(path.join(root, 'b', '.tradeledger'), { recursive: true });
      await writeFile(path.join(root, 'b', '.tradeledger', 'pg'), 'mine\n');
      const cli = await runCli(['status'], { TRADELEDGER_DATA_DIR: path.join(root, 'b', '.tradeledger', 'pg') });
      expect(cli.stderr).toContain(`${root}/b/.tradeledger/pg is a file, where a folder must be`);
      expect(cli.stderr).toContain('set TRADELEDGER_DATA_DIR to a folder you can write, or set DATABASE_URL');
      expect(cli.stderr).not.toContain('This is a bug');
      expect(cli.code).toBe(exitCodes.configOrAuth);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  // A folder no one may make a folder in, for root too: sysfs refuses mkdir to every user (root:
  // EPERM; others: EACCES; a container's read-only /sys: EROFS), as / refuses a scheduler's user.
  // (A chmod 555 folder would not do: root writes any folder whatever its mode.)
  it('a folder this user may not write in is named with the scheduler\'s usual cause and the ways round it', async () => {
    const err = await resolveDatabase({ env: {}, dataDir: '/sys/tradeledger-test/pg' }).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(TradeledgerError);
    expect((err as TradeledgerError).code).toBe('DB_DATA_DIR');
    expect((err as TradeledgerError).message).toMatch(/^cannot make or write the embedded PostgreSQL's data folder \/sys\/tradeledger-test\/pg \(at \/sys\/tradeledger-test: (permission denied \(EACCES\)|operation not permitted \(EPERM\)|the file system is read-only \(EROFS\))\)/);
    expect((err as TradeledgerError).hint).toContain('WorkingDirectory= in systemd');
    expect((err as TradeledgerError).hint).toContain('set TRADELEDGER_DATA_DIR to a folder you can write');
    const cli = await runCli(['status'], { TRADELEDGER_DATA_DIR: '/sys/tradeledger-test/pg' });
    expect(cli.stderr).not.toContain('This is a bug');
    expect(cli.code).toBe(exitCodes.configOrAuth);
  });
});
