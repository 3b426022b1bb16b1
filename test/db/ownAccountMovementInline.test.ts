// is_own_account_movement's rules live in its six-argument form (sql/migrations/0078), a function
// of the row alone that the planner inlines; tax_transactions answers "is the counterparty an
// account" with a join. The five-argument form (which asks accounts itself, as sql/migrations/0020
// did) must give the same answer on every row, tax_transactions' own_account must be that answer,
// and the six-argument form must not run as a call per row (what cost tax_transactions a third of
// its time at 1M records).
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh?.drop(); });
const client = { query: <R>(text: string, values: unknown[] = []) => fresh.db.executeQuery<R>(CompiledQuery.raw(text, values)) };

const sources = ['spot_fills', 'deposits', 'withdrawals', 'transfers', 'margin_records', 'futures_bills', 'imported_transactions'];
const kinds = ['deposit', 'withdrawal', 'transfer_in', 'transfer_out', 'trade_buy', 'fee'];
// A: the row's own account; B: another exported account; X: not an account; '' and NULL: none.
const counterparties = ['A', 'B', 'X', '', null];
const exportedAccounts = ['', 'A', 'B', 'X'];

describe('is_own_account_movement', () => {
  it('answers as sql/migrations/0020 did, in its five-argument form (asking accounts) and with the join\'s answer, for every combination', async () => {
    await client.query(`INSERT INTO accounts (uid, name, kind) VALUES ('A', 'a', 'main'), ('B', 'b', 'sub')`);
    const { rows } = await client.query<{ n: number; differ: number; own: number }>(`
      SELECT count(*)::int AS n,
             count(*) FILTER (WHERE five IS DISTINCT FROM rule OR six IS DISTINCT FROM rule)::int AS differ,
             count(*) FILTER (WHERE rule)::int AS own
      FROM (SELECT is_own_account_movement('A', s, k, c, p) AS five,
                   is_own_account_movement('A', s, k, c, p, a.uid IS NOT NULL) AS six,
                   -- the body sql/migrations/0020_tax_transactions_own_account.sql gave the function
                   CASE
                     WHEN s IN ('margin_records', 'futures_bills') THEN k IN ('transfer_in', 'transfer_out')
                     WHEN s = 'transfers' OR (s IN ('deposits', 'withdrawals') AND k IN ('deposit', 'withdrawal')) THEN
                       coalesce(c, '') <> ''
                       AND (c = 'A'
                            OR (p = '' AND EXISTS (SELECT 1 FROM accounts x WHERE x.uid = c))
                            OR c = p)
                     ELSE false
                   END AS rule
            FROM unnest($1::text[]) s CROSS JOIN unnest($2::text[]) k CROSS JOIN unnest($3::text[]) c CROSS JOIN unnest($4::text[]) p
            LEFT JOIN accounts a ON a.uid = c) t`, [sources, kinds, counterparties, exportedAccounts]);
    expect(rows[0]).toMatchObject({ n: sources.length * kinds.length * counterparties.length * exportedAccounts.length, differ: 0 });
    // Not vacuous: both answers occur.
    expect(rows[0]!.own).toBeGreaterThan(0);
    expect(rows[0]!.own).toBeLessThan(rows[0]!.n);
  });

  it('is inlined where tax_transactions uses it: no call per row in the plan', async () => {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (VERBOSE)
      SELECT is_own_account_movement(l.account_uid, l.source, l.kind, l.counterparty, '', oa.uid IS NOT NULL)
      FROM ledger l LEFT JOIN accounts oa ON oa.uid = l.counterparty`);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('transfer_in');
    expect(plan).not.toContain('is_own_account_movement');
  });

  // The rule (sql/migrations/0020): an E19 transfer row is own when its other account is this
  // account or an exported one. tr2's leg at X has A, an exported account, on its other side.
  it('gives tax_transactions\' own_account by the rule: a transfer between two exported accounts, not the leg whose other side is an outside uid', async () => {
    await client.query(`INSERT INTO transfers (account_uid, transfer_id, coin, status, from_type, to_type, from_user_id, to_user_id, size, ts, raw)
                        VALUES ('A', 'tr1', 'USDT', 'Successful', 'spot', 'spot', 'A', 'B', 5, '2025-03-01', '{}'),
                               ('A', 'tr2', 'USDT', 'Successful', 'spot', 'spot', 'A', 'X', 5, '2025-03-02', '{}')`);
    const { rows } = await client.query<{ source_id: string; account_uid: string; own_account: boolean }>(
      `SELECT source_id, account_uid, own_account FROM tax_transactions('2025-01-01', '2026-01-01', '') ORDER BY source_id, account_uid`);
    expect(rows).toEqual([
      { source_id: 'tr1', account_uid: 'A', own_account: true },
      { source_id: 'tr1', account_uid: 'B', own_account: true },
      { source_id: 'tr2', account_uid: 'A', own_account: false },
      { source_id: 'tr2', account_uid: 'X', own_account: true },
    ]);
  });
});
