import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { poolOf } from '../../src/db/createDb.js';
import { upsertSnapshot } from '../../src/load/upsertSnapshot.js';
import type { SnapshotTarget } from '../../src/load/upsertSnapshot.js';
import { recordMapper } from '../../src/load/recordMapper.js';
import { nulProblem } from '../../src/load/storableJson.js';
import { futuresAccounts } from '../../src/extract/streams/futuresAccounts.js';
import { subAccountApiKeys } from '../../src/extract/streams/subAccountApiKeys.js';

// Snapshot rows travel in the lean form history rows do (raw plus only what PostgreSQL cannot
// derive, through the one record mapper); these checks pin what the snapshot upsert must keep:
// exact decimals, exponent decimals, text arrays with quotes and backslashes, NULLs, secrets
// stripped, and counts that tell new, changed and equal rows apart within one snapshot time.
const accounts: SnapshotTarget = {
  table: futuresAccounts.table, key: futuresAccounts.key, accountColumn: 'account_uid', partitionColumns: ['product_type'], columns: futuresAccounts.columns,
};
const mapAccounts = recordMapper({ resource: futuresAccounts.name, columns: futuresAccounts.columns, key: futuresAccounts.key });
const keys: SnapshotTarget = {
  table: subAccountApiKeys.table, key: subAccountApiKeys.key, accountColumn: 'main_uid', partitionColumns: ['sub_account_uid'], columns: subAccountApiKeys.columns,
};
const mapKeys = recordMapper({ resource: subAccountApiKeys.name, columns: subAccountApiKeys.columns, key: subAccountApiKeys.key });
const exact = '123456789012345678901234.000000000000000000000001';
const at = '2026-01-02T03:04:05.006Z';
const partition = { product_type: 'USDT-FUTURES' };
const usdt = { marginCoin: 'USDT', available: exact, locked: '1.5E-3', accountEquity: '', usdtEquity: null, unrealizedPL: 'odd', assetMode: 'single' };

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh.drop(); });

describe('upsertSnapshot', () => {
  it('stores every value of a batch exactly, and flags what it cannot read', async () => {
    const pool = poolOf(fresh.db);
    const got = await upsertSnapshot(pool, accounts, { snapshotAt: at, account: 'u1', partition, runId: '1' },
      [mapAccounts(usdt, partition), mapAccounts({ marginCoin: 'BTC' }, partition)]);
    expect(got).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    const { rows } = await pool.query(`SELECT margin_coin, product_type, available::text AS available, locked::text AS locked, account_equity, usdt_equity,
      unrealized_pl, asset_mode, snapshot_at, raw, problems, run_id::text AS run_id FROM futures_account_snapshots ORDER BY margin_coin`);
    expect(rows[1]).toMatchObject({ margin_coin: 'USDT', product_type: 'USDT-FUTURES', available: exact, locked: '0.0015', account_equity: null, usdt_equity: null,
      unrealized_pl: null, asset_mode: 'single', raw: usdt, run_id: '1' });
    expect(rows[1].problems).toEqual([expect.stringMatching(/^unrealizedPL: /)]);
    expect((rows[1].snapshot_at as Date).toISOString()).toBe(at);
    expect(rows[0]).toMatchObject({ margin_coin: 'BTC', available: null, raw: { marginCoin: 'BTC' } });
  });

  it('leaves equal rows alone and counts new and changed ones', async () => {
    const pool = poolOf(fresh.db);
    const constants = { snapshotAt: at, account: 'u1', partition, runId: '1' };
    expect(await upsertSnapshot(pool, accounts, constants, [mapAccounts(usdt, partition), mapAccounts({ marginCoin: 'BTC' }, partition)]))
      .toEqual({ inserted: 0, updated: 0, unchanged: 2 });
    const got = await upsertSnapshot(pool, accounts, constants,
      [mapAccounts(usdt, partition), mapAccounts({ marginCoin: 'BTC', available: '2' }, partition), mapAccounts({ marginCoin: 'ETH' }, partition)]);
    expect(got).toEqual({ inserted: 1, updated: 1, unchanged: 1 });
    // Another snapshot time is another row.
    const later = await upsertSnapshot(pool, accounts, { ...constants, snapshotAt: '2026-01-03T00:00:00.000Z' }, [mapAccounts(usdt, partition)]);
    expect(later).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
  });

  it('stores text arrays as sent, strips secrets, and keys rows by the partition column', async () => {
    const pool = poolOf(fresh.db);
    const part = { sub_account_uid: 's1' };
    const key = { subAccountUid: 's1', subAccountApiKey: 'k1', label: 'it\'s "a" \\ label', permList: ['spot_trade', 'a "q" \\ b'], ipList: 'not a list', secretKey: 'hidden' };
    const got = await upsertSnapshot(pool, keys, { snapshotAt: at, account: 'm1', partition: part, runId: '2' }, [mapKeys(key, part)]);
    expect(got).toEqual({ inserted: 1, updated: 0, unchanged: 0 });
    const { rows } = await pool.query(`SELECT main_uid, sub_account_uid, api_key, label, perm_list, ip_list, raw, problems FROM sub_account_api_key_snapshots`);
    expect(rows).toEqual([{
      main_uid: 'm1', sub_account_uid: 's1', api_key: 'k1', label: key.label, perm_list: key.permList, ip_list: null,
      raw: { subAccountUid: 's1', subAccountApiKey: 'k1', label: key.label, permList: key.permList, ipList: 'not a list' }, problems: ['ipList: expected a list of strings'],
    }]);
  });

  it('stores a NUL character as U+FFFD and flags the row, instead of failing the batch', async () => {
    const pool = poolOf(fresh.db);
    const got = await upsertSnapshot(pool, accounts, { snapshotAt: at, account: 'u2', partition, runId: '3' },
      [mapAccounts({ marginCoin: 'NUL', assetMode: 'a\u0000b' }, partition), mapAccounts({ marginCoin: 'OK' }, partition)]);
    expect(got).toEqual({ inserted: 2, updated: 0, unchanged: 0 });
    const { rows } = await pool.query(`SELECT margin_coin, asset_mode, raw, problems FROM futures_account_snapshots WHERE account_uid = 'u2' ORDER BY margin_coin`);
    expect(rows.map((r) => [r.margin_coin, r.asset_mode, r.problems.includes(nulProblem)])).toEqual([['NUL', 'a\uFFFDb', true], ['OK', null, false]]);
  });
});
