// DATABASE_URL's sslmode means what libpq's documentation says it means
// (https://www.postgresql.org/docs/15/libpq-ssl.html, Table 34.1 "SSL Mode Descriptions"):
//   allow:  "first try a non-SSL connection; if that fails, try an SSL connection"
//   prefer: "first try an SSL connection; if that fails, try a non-SSL connection"
//   require: "I want my data to be encrypted ... I trust that the network will make sure I always
//            connect to the server I want" (no root certificate: the certificate is not checked;
//            "If a root CA file exists, the behavior of sslmode=require will be the same as that of
//            verify-ca")
//   verify-full: "I want to be sure that I connect to a server I trust, and that it's the one I specify"
// Hosted PostgreSQL services hand out URLs with sslmode=require and a certificate of their own;
// node-postgres 8 alone reads require as verify-full and failed them with "self-signed certificate".
//
// The server here is a stand-in in front of the real test server: it answers the SSLRequest
// with 'S' and speaks TLS with a self-signed certificate for "localhost"
// (test/fixtures/tls/localhost-cert.pem, made for this test only with `openssl req -new -x509
// -days 36500 -nodes -newkey rsa:2048 -subj /CN=localhost -addext subjectAltName=DNS:localhost`),
// then passes the decrypted bytes through. Like a server whose pg_hba.conf has only `hostssl`
// lines, it refuses a plain startup as PostgreSQL words it ("no pg_hba.conf entry ... no
// encryption"). The real test server itself takes no SSL, so it stands for a server without it.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { exitCodes } from '../../src/errors.js';
import { redactUrl } from '../../src/db/redactUrl.js';
import { withDefaultUser } from '../../src/db/withDefaultUser.js';
import { withParameters } from '../../src/db/urlParameters.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { pgErrorResponse } from '../support/pgWire.js';
import { runCli } from '../support/runCli.js';

const certFile = fileURLToPath(new URL('../fixtures/tls/localhost-cert.pem', import.meta.url));
const keyFile = fileURLToPath(new URL('../fixtures/tls/localhost-key.pem', import.meta.url));
const sslRequestCode = 80877103;

let fresh: FreshDatabase;
let front: net.Server;
let frontPort: number;
/** Sessions the front served over TLS, and plain startups it refused. */
const seen = { tls: 0, plainRefused: 0 };

beforeAll(async () => {
  fresh = await freshDatabase();
  const upstream = new URL(inject('databaseUrl'));
  const secureContext = tls.createSecureContext({ cert: readFileSync(certFile), key: readFileSync(keyFile) });
  front = net.createServer((socket) => {
    socket.on('error', () => {});
    socket.once('data', (first: Buffer) => {
      if (first.length >= 8 && first.readInt32BE(4) === sslRequestCode) {
        socket.write('S');
        const secure = new tls.TLSSocket(socket, { isServer: true, secureContext });
        secure.on('error', () => socket.destroy());
        secure.once('secure', () => {
          seen.tls++;
          const server = net.connect(Number(upstream.port || 5432), upstream.hostname, () => { secure.pipe(server); server.pipe(secure); });
          server.on('error', () => secure.destroy());
          secure.on('close', () => server.destroy());
        });
        return;
      }
      seen.plainRefused++;
      socket.end(pgErrorResponse('28000', 'no pg_hba.conf entry for host "127.0.0.1", user "postgres", database "test", no encryption'));
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  frontPort = (front.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => front?.close(() => resolve()));
  await fresh?.drop();
});

/** `tradeledger status` with `env` says nothing on stderr and exits 0. */
async function statusIsClean(env: Record<string, string>): Promise<void> {
  const status = await runCli(['status'], env);
  expect(status.stderr).toBe('');
  expect(status.code).toBe(exitCodes.ok);
}

/** The fresh database's URL through the TLS front (host `host`), with `query` added as written. */
function viaFront(query: string, host = '127.0.0.1'): string {
  const u = new URL(fresh.url);
  u.host = `${host}:${frontPort}`;
  return `${u.toString()}${query === '' ? '' : `?${query}`}`;
}
/** The fresh database's URL straight to the test server (no SSL), with `query` added. */
function direct(query: string): string {
  return `${fresh.url}${query === '' ? '' : `?${query}`}`;
}

describe('sslmode as libpq defines it', () => {
  it('require encrypts and connects to a server whose certificate is its own (no check), with no warning', async () => {
    const before = seen.tls;
    const migrated = await runCli(['db', 'migrate'], { DATABASE_URL: viaFront('sslmode=require') });
    expect(migrated.stderr).not.toContain('SECURITY WARNING');
    expect(migrated.code).toBe(exitCodes.ok);
    await statusIsClean({ DATABASE_URL: viaFront('sslmode=require') });
    expect(seen.tls).toBeGreaterThan(before);
  });

  it('verify-full refuses a certificate this machine does not trust, and says how to trust it or not check', async () => {
    const status = await runCli(['status'], { DATABASE_URL: viaFront('sslmode=verify-full') });
    expect(status.code).toBe(exitCodes.database);
    expect(status.stderr).toContain('self-signed certificate');
    expect(status.stderr).toContain('add sslrootcert=/path/to/ca.pem');
    expect(status.stderr).toContain('sslmode=require to encrypt without checking who the server is');
    expect(status.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('verify-full with the server\'s certificate as sslrootcert connects, to the name the certificate holds', async () => {
    await statusIsClean({ DATABASE_URL: viaFront(`sslmode=verify-full&sslrootcert=${certFile}`, 'localhost') });
  });

  it('prefer connects over SSL where the server has it, and without where it has not', async () => {
    const before = seen.tls;
    await statusIsClean({ DATABASE_URL: viaFront('sslmode=prefer') });
    expect(seen.tls).toBeGreaterThan(before);
    await statusIsClean({ DATABASE_URL: direct('sslmode=prefer') });
  });

  it('allow tries a plain connection first, and SSL when the server takes only that', async () => {
    const refusedBefore = seen.plainRefused;
    await statusIsClean({ DATABASE_URL: viaFront('sslmode=allow') });
    expect(seen.plainRefused).toBeGreaterThan(refusedBefore);
    const plain = await runCli(['status'], { DATABASE_URL: direct('sslmode=allow') });
    expect(plain.code).toBe(exitCodes.ok);
  });

  it('PGSSLMODE counts when the URL names no sslmode, as in libpq', async () => {
    await statusIsClean({ DATABASE_URL: viaFront(''), PGSSLMODE: 'require' });
  });

  it('PGSSLROOTCERT gives verify-full its root certificate, as in libpq (the URL\'s own sslrootcert would win)', async () => {
    await statusIsClean({ DATABASE_URL: viaFront('', 'localhost'), PGSSLMODE: 'verify-full', PGSSLROOTCERT: certFile });
    const unreadable = await runCli(['status'], { DATABASE_URL: viaFront('', 'localhost'), PGSSLMODE: 'verify-full', PGSSLROOTCERT: '/nonexistent/root.crt' });
    expect(unreadable.stderr).toContain('sslrootcert "/nonexistent/root.crt" cannot be read');
    expect(unreadable.code).toBe(exitCodes.configOrAuth);
  });

  it('a plain connection to a server that takes only SSL is told to add sslmode=require', async () => {
    const status = await runCli(['status'], { DATABASE_URL: viaFront('') });
    expect(status.code).toBe(exitCodes.database);
    expect(status.stderr).toContain('no encryption');
    expect(status.stderr).toContain('add sslmode=require');
  });

  it('require against a server without SSL is told so, with the fix', async () => {
    const status = await runCli(['status'], { DATABASE_URL: direct('sslmode=require') });
    expect(status.code).toBe(exitCodes.database);
    expect(status.stderr).toContain('The server does not support SSL connections');
    expect(status.stderr).toContain('turn ssl on in its postgresql.conf, or write sslmode=prefer (or disable)');
  });

  it('settings pg cannot use are refused before any connection, naming the setting', async () => {
    const cases: Array<[string, string]> = [
      ['sslmode=verify-ca', 'sslmode=verify-ca checks the server against a root certificate, and none is given'],
      ['sslmode=verify-full&sslrootcert=/nonexistent/ca.pem', 'sslrootcert "/nonexistent/ca.pem" cannot be read'],
      ['sslmode=requir', 'sslmode "requir" is not an SSL mode'],
    ];
    for (const [query, said] of cases) {
      const status = await runCli(['status'], { DATABASE_URL: viaFront(query) });
      expect(status.stderr, query).toContain(said);
      expect(status.stderr, query).not.toMatch(/\n\s+at /);
      expect(status.code, query).toBe(exitCodes.configOrAuth);
    }
  });
});

describe('a password given as a URL parameter', () => {
  it('is hidden wherever the URL is shown, as the one before @ is, and the other parameters keep their spelling', () => {
    expect(redactUrl('postgres://bob@db:5432/x?password=S3cret&options=-c%20work_mem%3D8MB')).toBe('postgres://bob@db:5432/x?password=***&options=-c%20work_mem%3D8MB');
    expect(redactUrl('postgres://db/x?sslpassword=keyPass&PASSWORD=S3cret')).toBe('postgres://db/x?sslpassword=***&PASSWORD=***');
    expect(redactUrl('postgres://bob:S3cret@db/x')).toBe('postgres://bob:***@db/x');
  });

  it('never reaches a message: a refused login shows *** and the user the parameter names', async () => {
    const u = new URL(direct(''));
    u.username = '';
    u.password = '';
    const status = await runCli(['status'], { DATABASE_URL: `${u.toString()}?user=nobody_here&password=S3cretPW99` });
    expect(status.code).toBe(exitCodes.database);
    // The server refuses the user the parameter names (trust auth: no such role; password auth: the password).
    expect(status.stderr).toMatch(/(role|user) "nobody_here"/);
    expect(status.stderr).toContain('password=***');
    expect(status.stderr).not.toContain('S3cretPW99');
    // The URL shown names no other user than the one the parameter gives.
    expect(status.stderr).not.toMatch(/:\/\/[^@/]+@/);
  });
});

describe('URL forms libpq takes', () => {
  it('a socket URL with no host before the path gets its default user as a parameter (the URL standard drops a user name there)', () => {
    const env = { PGUSER: 'ledger' };
    expect(withDefaultUser('postgres:///ledger?host=/var/run/postgresql', env)).toBe('postgres:///ledger?host=/var/run/postgresql&user=ledger');
    expect(withDefaultUser('postgres:///ledger', env)).toBe('postgres:///ledger?user=ledger');
    expect(withDefaultUser('postgres://db:5432/ledger', env)).toBe('postgres://ledger@db:5432/ledger');
    expect(withDefaultUser('postgres://db:5432/ledger?user=other', env)).toBe('postgres://db:5432/ledger?user=other');
  });

  it('a password with a character a URL reserves is told how to write it, and is not shown', async () => {
    for (const password of ['pa#ss', 'pa/ss', 'pa?ss']) {
      const status = await runCli(['status'], { DATABASE_URL: `postgres://ledger:${password}word99@127.0.0.1:5432/ledger` });
      expect(status.code, password).toBe(exitCodes.configOrAuth);
      expect(status.stderr, password).toContain('A password holding / ? # or % must have them percent-encoded: %2F %3F %23 %25');
      expect(status.stderr, password).not.toContain('word99');
    }
  });

  it('parameters are added or replaced, every other one kept in its spelling (psql reads the URL back)', () => {
    expect(withParameters('postgres://db/x?options=-c%20a%3D1', { sslmode: 'require' })).toBe('postgres://db/x?options=-c%20a%3D1&sslmode=require');
    expect(withParameters('postgres://db/x?sslmode=prefer&options=-c%20a%3D1', { sslmode: 'disable' })).toBe('postgres://db/x?sslmode=disable&options=-c%20a%3D1');
    expect(withParameters('postgres://db/x', { sslmode: 'require', sslrootcert: '%2Fetc%2Fca.pem' })).toBe('postgres://db/x?sslmode=require&sslrootcert=%2Fetc%2Fca.pem');
  });

  it('several hosts (libpq\'s failover list) are refused by name, with the fix', async () => {
    const status = await runCli(['status'], { DATABASE_URL: 'postgres://ledger:S3cretPW99@127.0.0.1:5432,127.0.0.1:5433/ledger' });
    expect(status.code).toBe(exitCodes.configOrAuth);
    expect(status.stderr).toContain('DATABASE_URL names several servers (127.0.0.1:5432,127.0.0.1:5433); tradeledger connects to one');
    expect(status.stderr).not.toContain('S3cretPW99');
  });
});
