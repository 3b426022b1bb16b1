// data_quality names a position snapshot's row by its time ('...@' || snapshot_at). That text
// followed the session's zone and DateStyle, so one row had as many ids as there were analysts'
// settings. Migration 0084 spells the time out in UTC, as an ISO, UTC session printed it before,
// so ids already shown on the usual UTC server do not change.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';

let fresh: FreshDatabase;
beforeAll(async () => { fresh = await freshDatabase(); });
afterAll(async () => { await fresh?.drop(); });

const times = ['2024-03-31 01:00:00Z', '2024-03-31 01:00:00.5Z', '2024-12-31 23:59:59.123456Z', '2025-06-30 18:30:00.12Z', '2025-01-01 00:00:00.000001Z'];

describe('data_quality: a snapshot row\'s record_id', () => {
  it('is the same in every session setting, and the text an ISO, UTC session gave before', async () => {
    await sql`INSERT INTO position_snapshots (snapshot_at, account_uid, product_type, symbol, margin_coin, hold_side, margin_mode, raw, problems)
      SELECT t::timestamptz, '1', 'USDT-FUTURES', 'BTCUSDT', 'USDT', 'long', 'crossed', '{}', '{"a problem"}' FROM unnest(${times}::text[]) AS t`.execute(fresh.db);
    const read = (zone: string, style: string) => fresh.db.transaction().execute(async (trx) => {
      await sql`SELECT set_config('TimeZone', ${zone}, true), set_config('DateStyle', ${style}, true)`.execute(trx);
      const { rows } = await sql<{ id: string; before: string }>`
        SELECT record_id AS id, 'USDT-FUTURES/BTCUSDT/long@' || ts AS before FROM data_quality WHERE source = 'position_snapshots' ORDER BY ts`.execute(trx);
      return rows;
    });
    const utc = await read('UTC', 'ISO, MDY');
    expect(utc.map((r) => r.id)).toEqual(utc.map((r) => r.before));
    expect(utc.map((r) => r.id)).toEqual([
      'USDT-FUTURES/BTCUSDT/long@2024-03-31 01:00:00+00', 'USDT-FUTURES/BTCUSDT/long@2024-03-31 01:00:00.5+00',
      'USDT-FUTURES/BTCUSDT/long@2024-12-31 23:59:59.123456+00', 'USDT-FUTURES/BTCUSDT/long@2025-01-01 00:00:00.000001+00',
      'USDT-FUTURES/BTCUSDT/long@2025-06-30 18:30:00.12+00']);
    for (const [zone, style] of [['Asia/Kolkata', 'ISO, MDY'], ['America/St_Johns', 'SQL, DMY'], ['Europe/London', 'German']] as const) {
      const other = await read(zone, style);
      expect(other.map((r) => r.id)).toEqual(utc.map((r) => r.id));
      // the premise: the time's own text does change there
      expect(other.map((r) => r.before)).not.toEqual(utc.map((r) => r.before));
    }
  });
});
