import { describe, expect, it } from 'vitest';
import { TradeledgerError } from '../../src/errors.js';
import { resolveDatabase } from '../../src/db/resolveDatabase.js';

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
