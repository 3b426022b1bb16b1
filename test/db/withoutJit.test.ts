// withoutJit (src/db/withoutJit.ts) turns JIT off for the rest of the transaction only: a pooled
// connection's next user, or the next transaction on the same connection, gets the server's
// setting back.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutJit } from '../../src/db/withoutJit.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh?.drop(); });

describe('withoutJit', () => {
  it('is off inside the transaction and back to the session\'s setting after it', async () => {
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    try {
      const jit = async () => (await client.query<{ jit: string }>(`SELECT current_setting('jit') AS jit`)).rows[0]!.jit;
      await client.query('SET jit = on');
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query(withoutJit);
      expect(await jit()).toBe('off');
      await client.query('COMMIT');
      expect(await jit()).toBe('on');
    } finally {
      await client.end();
    }
  });
});
