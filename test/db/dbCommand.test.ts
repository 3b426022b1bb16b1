import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { exitCodes } from '../../src/errors.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

// In-process runs of the CLI against this project's server, with DATABASE_URL pointing at a
// fresh database. (The embedded-server paths run the real binary in embeddedServer.test.ts.)
describe('tradeledger db, with DATABASE_URL', () => {
  let fresh: FreshDatabase;
  const saved = process.env.DATABASE_URL;
  async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out.push(String(s)); return true; });
    const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => { err.push(String(s)); return true; });
    try {
      return { code: await main(args), out: out.join(''), err: err.join('') };
    } finally {
      o.mockRestore();
      e.mockRestore();
    }
  }

  beforeAll(async () => {
    fresh = await freshDatabase();
    process.env.DATABASE_URL = fresh.url;
  });
  afterEach(() => { vi.restoreAllMocks(); });
  afterAll(async () => {
    if (saved === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = saved;
    await fresh?.drop();
  });

  it('url prints DATABASE_URL', async () => {
    const r = await cli('db', 'url');
    expect(r).toMatchObject({ code: exitCodes.ok, out: `${fresh.url}\n` });
  });

  it('migrate applies nothing on an up-to-date database and says so', async () => {
    const r = await cli('db', 'migrate');
    expect(r.code).toBe(exitCodes.ok);
    expect(r.out).toMatch(/^0 applied now, \d+ in total; .* is up to date\.\n$/);
  });

  it('status --json reports version, migrations and row counts', async () => {
    const r = await cli('db', 'status', '--json');
    expect(r.code).toBe(exitCodes.ok);
    const s = JSON.parse(r.out) as { version: string; pending: string[]; applied: unknown[]; tables: Record<string, string>; server: string };
    expect(s.server).toBe('from DATABASE_URL');
    expect(s.version).toMatch(/^\d+/);
    expect(s.pending).toEqual([]);
    expect(s.tables.schema_migrations).toBe(String(s.applied.length));
  });

  it('bad usage and bad settings exit with the config code and a fix, no stack trace', async () => {
    const unknown = await cli('db', 'bogus');
    expect(unknown.code).toBe(exitCodes.configOrAuth);
    expect(unknown.err).toContain("unknown command 'bogus'");
    delete process.env.DATABASE_URL;
    try {
      const port = await cli('db', 'url', '--port', '5432');
      expect(port.code).toBe(exitCodes.configOrAuth);
      expect(port.err).toMatch(/port "5432" is not usable\n {2}fix: /);
      expect(port.err).not.toMatch(/\n\s+at /);
    } finally {
      process.env.DATABASE_URL = fresh.url;
    }
  });
});
