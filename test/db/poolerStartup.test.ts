// A connection pooler in front of PostgreSQL. PgBouncer before 1.20 (Debian 12 ships 1.18)
// answers a startup packet that holds a parameter it does not track with "FATAL: unsupported
// startup parameter: options" (seen with pgbouncer 1.18.0 on this machine; from 1.20 it parses
// `options`: https://github.com/pgbouncer/pgbouncer/pull/908). The parameters it tracks
// (https://www.pgbouncer.org/config.html, ignore_startup_parameters) include TimeZone, DateStyle,
// standard_conforming_strings, client_encoding and application_name. This stand-in refuses
// `options` the same way and otherwise passes the bytes through to the real server, so
// tradeledger's session settings (a SET after connecting, src/db/pools.ts) are held to work behind
// one, and a user's own `options` is told as the pooler's refusal, with the fix.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exitCodes } from '../../src/errors.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { pgErrorResponse } from '../support/pgWire.js';
import { runCli } from '../support/runCli.js';

const tracked = new Set(['user', 'database', 'application_name', 'client_encoding', 'datestyle', 'timezone', 'standard_conforming_strings', 'replication']);

/** The startup packet's parameter names (protocol 3.0: length, version, then name\0value\0 pairs). */
function startupNames(packet: Buffer): string[] {
  const names: string[] = [];
  let at = 8;
  while (at < packet.length - 1) {
    const nameEnd = packet.indexOf(0, at);
    const valueEnd = packet.indexOf(0, nameEnd + 1);
    names.push(packet.subarray(at, nameEnd).toString('utf8'));
    at = valueEnd + 1;
  }
  return names;
}

let fresh: FreshDatabase;
let pooler: net.Server;
let poolerUrl: string;
const refused: string[] = [];
beforeAll(async () => {
  fresh = await freshDatabase();
  const upstream = new URL(inject('databaseUrl'));
  pooler = net.createServer((client) => {
    client.on('error', () => {});
    client.once('data', (first: Buffer) => {
      const unknown = startupNames(first).filter((n) => !tracked.has(n.toLowerCase()));
      if (unknown.length > 0) {
        refused.push(...unknown);
        client.end(pgErrorResponse('08P01', `unsupported startup parameter: ${unknown[0]}`));
        return;
      }
      const server = net.connect(Number(upstream.port || 5432), upstream.hostname, () => { server.write(first); client.pipe(server); server.pipe(client); });
      server.on('error', () => client.destroy());
      client.on('close', () => server.destroy());
    });
  });
  await new Promise<void>((resolve) => pooler.listen(0, '127.0.0.1', resolve));
  const u = new URL(fresh.url);
  u.host = `127.0.0.1:${(pooler.address() as net.AddressInfo).port}`;
  poolerUrl = u.toString();
});
afterAll(async () => {
  await new Promise<void>((resolve) => pooler?.close(() => resolve()));
  await fresh?.drop();
});

describe('behind a connection pooler that refuses untracked startup parameters', () => {
  it('tradeledger\'s own connections pass (their settings are a SET, not -c options)', async () => {
    const status = await runCli(['status'], { DATABASE_URL: poolerUrl });
    expect(refused).toEqual([]);
    expect(status.stderr).toBe('');
    expect(status.code).toBe(exitCodes.ok);
  });

  it('a DATABASE_URL carrying options is told it is the pooler that refuses them, and what to change', async () => {
    const u = new URL(poolerUrl);
    u.searchParams.set('options', '-c work_mem=8MB');
    const status = await runCli(['status'], { DATABASE_URL: u.toString() });
    expect(status.stderr).toContain('unsupported startup parameter: options');
    expect(status.stderr).toContain('A connection pooler in front of PostgreSQL (PgBouncer) refuses the startup parameter options: take it out of DATABASE_URL (and PGOPTIONS)');
    expect(status.code).toBe(exitCodes.database);
  });
});
