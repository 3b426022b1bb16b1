// has_unused_sign (sql/migrations/0077_has_unused_sign_inline.sql) is one expression the planner
// inlines, where sql/migrations/0017_ledger_unused_sign.sql's EXISTS over unnest ran the function
// through its own executor for every row of the ledger. Its answer must be the old body's on every
// array, and the ledger's plan must hold the expression, not a call (a call is what cost a third
// of every ledger read at 1M records).
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh?.drop(); });
const client = { query: <R>(text: string, values: unknown[] = []) => fresh.db.executeQuery<R>(CompiledQuery.raw(text, values)) };

const words = 'a sign the API never uses for this field';
// The problem checkRecord writes (src/normalize/checkRecord.ts, unusedSign) and its neighbours.
const unused = `size: "-1e5" is negative, ${words}; kept raw, left out of the ledger`;
const arrays: ((string | null)[] | null)[] = [
  null,
  [],
  [null],
  [null, null],
  [unused],
  ['fee: missing'],
  ['fee: missing', unused],
  [null, unused],
  [unused, null],
  [words],
  [words.toUpperCase()], // LIKE is case-sensitive: not the words
  [`line one\n${words}\nline three`], // a problem holding newlines is still one problem
  // The words split across two problems are in neither: joined without a separator they would match.
  ['a sign the API never', ' uses for this field'],
  ['a sign the API never ', 'uses for this field'],
  [`${words.slice(0, 10)}`, `${words.slice(10)}`],
  ['%', '_', '\\'],
  ['a sign the API never uses for this fiel'],
  ['', ''],
  [''],
];

describe('has_unused_sign', () => {
  it('answers as the EXISTS over unnest of sql/migrations/0017 did, on every array', async () => {
    for (const problems of arrays) {
      const { rows } = await client.query<{ now: boolean; then: boolean }>(
        `SELECT has_unused_sign($1::text[]) AS now,
                EXISTS (SELECT 1 FROM unnest($1::text[]) p WHERE p LIKE '%a sign the API never uses for this field%') AS then`,
        [problems],
      );
      expect({ problems, answer: rows[0]!.now }).toEqual({ problems, answer: rows[0]!.then });
    }
  });

  it('is inlined into the ledger: its plan holds the expression, no call of the function', async () => {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (VERBOSE) SELECT count(*) FROM ledger`);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('array_to_string');
    expect(plan).not.toContain('has_unused_sign');
  });

  it('leaves a fill whose problems name an unused sign out of the ledger, and keeps one without', async () => {
    await client.query(`INSERT INTO spot_fills (account_uid, trade_id, order_id, symbol, side, size, amount, c_time, raw, problems)
                        VALUES ('A', 't1', 'o1', 'BTCUSDT', 'buy', 1, 100, now(), '{}', '{}'),
                               ('A', 't2', 'o2', 'BTCUSDT', 'buy', 1, 100, now(), '{}', $1::text[])`, [[unused]]);
    const { rows } = await client.query<{ source_id: string }>(`SELECT DISTINCT source_id FROM ledger WHERE source = 'spot_fills' ORDER BY 1`);
    expect(rows.map((r) => r.source_id)).toEqual(['t1']);
  });
});
