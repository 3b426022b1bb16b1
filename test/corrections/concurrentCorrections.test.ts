import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCorrection, undoCorrection } from '../../src/corrections/ledgerCorrections.js';
import { addUser } from '../../src/portal/portalUsers.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { runCli } from '../support/runCli.js';
import { fixtureSql } from '../reports/ledgerFixture.js';

// Two accountants (or a double-clicked portal form) correcting one row at the same moment: one of
// them got "unexpected error: duplicate key value violates unique constraint
// ledger_corrections_in_force_row ... This is a bug" (exit 1), and a correction set while another
// was being undone could miss the one the undo put back. Each change to a row's corrections now
// waits for the one before it.
let fresh: FreshDatabase;
let pool: pg.Pool;
const row = { username: 'anna', account: 'A', row: 'withdrawals:w1' };

beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(fixtureSql).execute(fresh.db);
  pool = new pg.Pool({ connectionString: fresh.url, max: 6 });
  await addUser(pool, { username: 'anna', password: 'anna password 12345', role: 'admin', accounts: [] });
});
afterAll(async () => {
  await pool?.end();
  await fresh?.drop();
});

/** The row's corrections as a chain: exactly one in force, each replacing the one before it. */
async function chain(): Promise<{ id: string; replaces: string | null; replaced_by: string | null; undone: boolean }[]> {
  const { rows } = await pool.query(`SELECT id::text, replaces::text, replaced_by::text, undone_at IS NOT NULL AS undone
    FROM ledger_corrections WHERE account_uid = 'A' AND source = 'withdrawals' AND source_id = 'w1' ORDER BY id`);
  return rows;
}

describe('corrections of one row set at the same moment', () => {
  it('five sets at once all succeed, each replacing the one before: one in force, an unbroken chain', async () => {
    const kinds = ['gift_sent', 'payment', 'lost', 'stolen', 'gift_sent'];
    const results = await Promise.all(kinds.map((as, i) => setCorrection(pool, { ...row, classification: as, why: `at once ${i}` })));
    expect(results.filter((r) => r.replaced === null)).toHaveLength(1);
    const links = await chain();
    expect(links).toHaveLength(5);
    expect(links.filter((c) => c.replaced_by === null && !c.undone)).toHaveLength(1);
    // every correction but the first replaces exactly one other, and is named by it as its replacement
    const byId = new Map(links.map((c) => [c.id, c]));
    expect(links.filter((c) => c.replaces === null)).toHaveLength(1);
    for (const c of links) if (c.replaces !== null) expect(byId.get(c.replaces)?.replaced_by).toBe(c.id);
  });

  it('an undo and a set at once: the set replaces whatever is in force after the undo, never two in force', async () => {
    const { rows } = await pool.query<{ id: string }>(`SELECT id::text FROM ledger_corrections_in_force WHERE account_uid = 'A' AND source_id = 'w1'`);
    const inForce = rows[0]!.id;
    const [undone, set] = await Promise.all([
      undoCorrection(pool, { username: 'anna', id: inForce, why: 'undo at once' }),
      setCorrection(pool, { ...row, classification: 'payment', why: 'set at once' }),
    ].map((p) => p.then((v) => v, (e: unknown) => e)));
    // Either order is fine. The set never fails; the undo either went first, or finds its
    // correction replaced by the set and says so (the refusal any late undo gets), never a bug.
    expect(set).not.toBeInstanceOf(Error);
    if (undone instanceof Error) expect((undone as { code?: string }).code, undone.message).toBe('CORRECTION_NOT_IN_FORCE');
    const links = await chain();
    expect(links.filter((c) => c.replaced_by === null && !c.undone)).toHaveLength(1);
  });

  it('through the CLI: three classify set at once exit 0', async () => {
    const env = { DATABASE_URL: fresh.url };
    const runs = await Promise.all(['gift_sent', 'payment', 'lost'].map((as) =>
      runCli(['classify', 'set', '--user', 'anna', '--account', 'A', '--row', 'withdrawals:w1', '--as', as, '--why', `cli ${as}`], env)));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect((await chain()).filter((c) => c.replaced_by === null && !c.undone)).toHaveLength(1);
  });
});
