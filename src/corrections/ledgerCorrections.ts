import type pg from 'pg';
import { sql } from 'kysely';
import { databaseOn } from '../db/databaseOn.js';
import { TradeledgerError } from '../errors.js';
import { classificationNames, classificationOf } from './classifications.js';
import { correctingUser } from './correctionAccess.js';
import { isFiatCode } from '../imports/currencyCodes.js';

/** A correction as stored (ledger_corrections), with the ledger row it is on when that row exists. */
export interface Correction {
  id: string;
  account: string;
  wallet: string;
  source: string;
  sourceId: string;
  leg: string;
  /** `source:source_id`, the row id the CLI and the portal take. */
  row: string;
  classification: string | null;
  otherSide: string | null;
  price: string | null;
  priceCurrency: string | null;
  priceSource: string | null;
  why: string;
  setBy: string;
  setAt: string;
  replaces: string | null;
  replacedBy: string | null;
  undoneBy: string | null;
  undoneAt: string | null;
  undoWhy: string | null;
  inForce: boolean;
  /** The ledger row now (null when a re-sync no longer has it: a status that changed). */
  ts: string | null;
  coin: string | null;
  amount: string | null;
  kind: string | null;
}

/** A ledger row an accountant may classify (a deposit's or withdrawal's amount). */
export interface CorrectableRow {
  row: string;
  wallet: string;
  leg: string;
  ts: string;
  coin: string;
  amount: string;
  kind: string;
  counterparty: string | null;
  correction: { id: string; classification: string | null; price: string | null; priceCurrency: string | null } | null;
}

/** What `classify set` (or the portal's form) asks for. */
export interface SetCorrectionInput {
  /** The portal user who sets it (checked against the account's grants). */
  username: string;
  account: string;
  /** `source:source_id`, e.g. `withdrawals:1234567890`. */
  row: string;
  wallet?: string;
  leg?: string;
  classification?: string;
  /** own_wallet: the other side (a wallet name, an address, another row source:id). */
  otherSide?: string;
  /** A unit price in priceCurrency, decimal text. */
  price?: string;
  priceCurrency?: string;
  priceSource?: string;
  why: string;
}

const bad = (code: string, message: string, hint: string) => new TradeledgerError(code, message, { kind: 'config', hint });

const selectCorrection = `
  SELECT c.id::text AS id, c.account_uid, c.wallet, c.source, c.source_id, c.leg, c.classification, c.other_side,
         c.price::text AS price, c.price_currency, c.price_source, c.why, c.set_by,
         to_char(c.set_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS set_at,
         c.replaces::text AS replaces, c.replaced_by::text AS replaced_by, c.undone_by,
         to_char(c.undone_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS undone_at, c.undo_why,
         (c.undone_at IS NULL AND c.replaced_by IS NULL) AS in_force,
         to_char(l.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts, l.coin, l.amount::text AS amount, l.kind
  FROM ledger_corrections c
  LEFT JOIN LATERAL (
    SELECT l.ts, l.coin, l.amount, l.kind FROM ledger l
    WHERE l.account_uid = c.account_uid AND l.source = c.source AND l.source_id = c.source_id AND l.wallet = c.wallet AND l.leg = c.leg
    LIMIT 1
  ) l ON true`;

function toCorrection(r: Record<string, string | boolean | null>): Correction {
  const s = (k: string) => (r[k] === null ? null : String(r[k]));
  return {
    id: String(r.id), account: String(r.account_uid), wallet: String(r.wallet), source: String(r.source), sourceId: String(r.source_id),
    leg: String(r.leg), row: `${r.source}:${r.source_id}`, classification: s('classification'), otherSide: s('other_side'),
    price: s('price'), priceCurrency: s('price_currency'), priceSource: s('price_source'), why: String(r.why), setBy: String(r.set_by),
    setAt: String(r.set_at), replaces: s('replaces'), replacedBy: s('replaced_by'), undoneBy: s('undone_by'), undoneAt: s('undone_at'),
    undoWhy: s('undo_why'), inForce: r.in_force === true, ts: s('ts'), coin: s('coin'), amount: s('amount'), kind: s('kind'),
  };
}

/**
 * Splits a row id `source:source_id` (as koinly.csv's Description and `classify rows` show it).
 *
 * @example
 * parseRowId('withdrawals:123'); // { source: 'withdrawals', sourceId: '123' }
 */
export function parseRowId(row: string): { source: string; sourceId: string } {
  const at = row.indexOf(':');
  if (at <= 0 || at === row.length - 1) {
    throw bad('CORRECTION_BAD_ROW', `"${row}" is not a ledger row id`, 'A row id is source:source_id, e.g. withdrawals:1234567890 (tradeledger classify rows --account UID lists them).');
  }
  return { source: row.slice(0, at), sourceId: row.slice(at + 1) };
}

/**
 * Sets a correction on one ledger row, in one transaction: checks the user's grant on the
 * account, finds the row by its natural id, checks the classification fits it (a gift sent must
 * be a withdrawal, income a deposit ...), and stores who, when and why. A row that already has a
 * correction in force keeps what this one does not say (its classification, its price) and the
 * old one is marked replaced: undoing the new one puts it back in force.
 *
 * @example
 * await setCorrection(pool, { username: 'anna', account: '1000000001', row: 'withdrawals:42', classification: 'gift_sent', why: 'birthday present to her son' });
 */
export async function setCorrection(pool: pg.Pool, input: SetCorrectionInput): Promise<{ correction: Correction; replaced: Correction | null }> {
  const why = input.why?.trim() ?? '';
  if (why === '') throw bad('CORRECTION_NO_WHY', 'a correction needs a reason', 'Say why with --why "..." (it is kept with the correction, for the audit).');
  if (input.classification === undefined && input.price === undefined) {
    throw bad('CORRECTION_NOTHING', 'a correction needs a classification or a price', `Give --as (one of ${classificationNames.join(', ')}) and/or --price with --price-currency and --price-source.`);
  }
  const kind = input.classification === undefined ? undefined : classificationOf(input.classification);
  if (input.classification !== undefined && !kind) {
    throw bad('CORRECTION_UNKNOWN_KIND', `"${input.classification}" is not a classification`, `Use one of: ${classificationNames.join(', ')} (tradeledger classify kinds explains each).`);
  }
  if (input.price !== undefined) {
    if (!/^\d+(\.\d+)?$/.test(input.price)) throw bad('CORRECTION_BAD_PRICE', `--price ${input.price} is not a decimal number`, 'Give the unit price as digits with a point, e.g. 61234.50.');
    if ((input.priceCurrency ?? '').trim() === '') throw bad('CORRECTION_BAD_PRICE', 'a corrected price needs its currency', 'Add --price-currency with an ISO 4217 code: USD, EUR, GBP ...');
    // A price in no currency would be stored and never valued: the row stayed unpriced, silently.
    if (!isFiatCode(input.priceCurrency!)) throw bad('CORRECTION_BAD_PRICE', `--price-currency ${input.priceCurrency} is not an ISO 4217 currency code`, 'Give the currency the price is in: USD, EUR, GBP ... (a price in a coin: convert it to fiat first).');
    if ((input.priceSource ?? '').trim() === '') throw bad('CORRECTION_BAD_PRICE', 'a corrected price needs its source', 'Add --price-source naming where the price comes from (an invoice, a price site\'s close ...).');
  }
  const { source, sourceId } = parseRowId(input.row);

  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const user = await correctingUser(client, input.username, input.account);
    const { rows: found } = await client.query<{ wallet: string; leg: string; kind: string; amount: string; demo: boolean }>(
      `SELECT wallet, leg, kind, amount::text AS amount, demo FROM ledger
       WHERE account_uid = $1 AND source = $2 AND source_id = $3 ORDER BY wallet, leg`, [input.account, source, sourceId]);
    if (found.length === 0) {
      throw bad('CORRECTION_UNKNOWN_ROW', `account ${input.account} has no ledger row ${input.row}`, `List the rows it has with: tradeledger classify rows --account ${input.account}`);
    }
    let candidates = found.filter((r) => (input.wallet === undefined || r.wallet === input.wallet) && (input.leg === undefined || r.leg === input.leg));
    if (input.leg === undefined && kind) candidates = candidates.filter((r) => r.kind !== 'fee');
    if (candidates.length !== 1) {
      const legs = found.map((r) => `${r.wallet}/${r.leg}`).join(', ');
      throw bad('CORRECTION_AMBIGUOUS_ROW', `${input.row} of account ${input.account} has ${candidates.length === 0 ? 'no' : 'several'} matching legs (${legs})`, 'Name one with --wallet and --leg.');
    }
    const target = candidates[0]!;
    if (kind) {
      if (target.kind !== 'deposit' && target.kind !== 'withdrawal') {
        throw bad('CORRECTION_KIND_MISMATCH', `${input.row} is a ${target.kind} row; only deposits and withdrawals take a classification`, 'A trade, fee or transfer row can take a corrected price (--price) only.');
      }
      const direction = target.amount.startsWith('-') ? 'out' : 'in';
      if (kind.direction !== 'either' && kind.direction !== direction) {
        throw bad('CORRECTION_KIND_MISMATCH', `${input.row} is a ${target.kind}: ${kind.name} is for coins going ${kind.direction}`, `Choose a classification for coins going ${direction} (tradeledger classify kinds).`);
      }
      if (kind.name === 'own_wallet' && (input.otherSide ?? '').trim() === '') {
        throw bad('CORRECTION_NO_OTHER_SIDE', 'own_wallet needs the other side of the move', 'Name it with --other (your wallet\'s name or address, or its ledger row source:id).');
      }
    }
    await lockCorrectedRow(client, { account: input.account, wallet: target.wallet, source, sourceId, leg: target.leg });
    const { rows: current } = await client.query(`${selectCorrection}
      WHERE c.account_uid = $1 AND c.wallet = $2 AND c.source = $3 AND c.source_id = $4 AND c.leg = $5
        AND c.undone_at IS NULL AND c.replaced_by IS NULL FOR UPDATE OF c`, [input.account, target.wallet, source, sourceId, target.leg]);
    const old = current[0] ? toCorrection(current[0]) : null;
    const classification = input.classification ?? old?.classification ?? null;
    const keepPrice = input.price === undefined && old !== null && old.price !== null;
    // The old one names its replacement first (the foreign key is deferred), so the unique index
    // never sees two corrections in force on the row.
    const { rows: next } = await client.query<{ id: string }>(`SELECT nextval(pg_get_serial_sequence('ledger_corrections', 'id'))::text AS id`);
    const id = next[0]!.id;
    const db = databaseOn(client);
    if (old) await db.updateTable('ledger_corrections').set({ replaced_by: id }).where('id', '=', old.id).execute();
    await db.insertInto('ledger_corrections').values({
      id, account_uid: input.account, wallet: target.wallet, source, source_id: sourceId, leg: target.leg, classification,
      other_side: classification === 'own_wallet' ? (input.otherSide?.trim() || old?.otherSide || null) : null,
      price: keepPrice ? old!.price : input.price ?? null,
      price_currency: keepPrice ? old!.priceCurrency : input.priceCurrency?.toUpperCase() ?? null,
      price_source: keepPrice ? old!.priceSource : input.priceSource?.trim() ?? null,
      why, set_by: user.username, replaces: old?.id ?? null,
    }).execute();
    const { rows: back } = await client.query(`${selectCorrection} WHERE c.id = $1`, [id]);
    const correction = toCorrection(back[0]!);
    await client.query('COMMIT');
    return { correction, replaced: old };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Serialises every change to one ledger row's corrections until the transaction ends. Row locks
 * alone did not: two corrections set at once on a row without one in force both inserted (one
 * then failed on the unique index with an internal error), and a set that waited on an undo
 * missed the correction the undo put back in force. After this lock, the next statement's
 * snapshot sees whatever the other transaction committed.
 */
async function lockCorrectedRow(client: pg.PoolClient, row: { account: string; wallet: string; source: string; sourceId: string; leg: string }): Promise<void> {
  const key = JSON.stringify(['ledger_corrections', row.account, row.wallet, row.source, row.sourceId, row.leg]);
  await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
}

/**
 * Undoes a correction in force: stamps who, when and why (the row is kept, for the audit), and
 * puts the correction it replaced, if any, back in force. The user needs a grant on its account.
 *
 * @example
 * await undoCorrection(pool, { username: 'anna', id: '7', why: 'it was a sale after all' });
 */
export async function undoCorrection(pool: pg.Pool, input: { username: string; id: string; why: string }): Promise<{ undone: Correction; restored: Correction | null }> {
  const why = input.why?.trim() ?? '';
  if (why === '') throw bad('CORRECTION_NO_WHY', 'undoing a correction needs a reason', 'Say why with --why "..." (it is kept with the correction, for the audit).');
  if (!/^\d{1,18}$/.test(input.id)) throw bad('CORRECTION_UNKNOWN', `"${input.id}" is not a correction id`, 'tradeledger classify list --account UID shows the ids.');
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows: first } = await client.query(`${selectCorrection} WHERE c.id = $1`, [input.id]);
    if (!first[0]) throw bad('CORRECTION_UNKNOWN', `there is no correction #${input.id}`, 'tradeledger classify list --account UID shows the ids.');
    // The row's lock first (as setCorrection takes it), then the correction as it is now.
    const seen = toCorrection(first[0]);
    await lockCorrectedRow(client, { account: seen.account, wallet: seen.wallet, source: seen.source, sourceId: seen.sourceId, leg: seen.leg });
    const { rows } = await client.query(`${selectCorrection} WHERE c.id = $1 FOR UPDATE OF c`, [input.id]);
    const found = toCorrection(rows[0]!);
    const user = await correctingUser(client, input.username, found.account);
    if (!found.inForce) {
      throw bad('CORRECTION_NOT_IN_FORCE', `correction #${found.id} is not in force (${found.undoneAt ? `undone by ${found.undoneBy} at ${found.undoneAt}` : `replaced by #${found.replacedBy}`})`,
        found.replacedBy ? `Undo #${found.replacedBy} instead; that puts #${found.id} back in force.` : 'Nothing to undo.');
    }
    const db = databaseOn(client);
    await db.updateTable('ledger_corrections').set({ undone_by: user.username, undone_at: sql<Date>`now()`, undo_why: why }).where('id', '=', found.id).execute();
    let restored: Correction | null = null;
    if (found.replaces !== null) {
      await db.updateTable('ledger_corrections').set({ replaced_by: null }).where('id', '=', found.replaces).where('undone_at', 'is', null).execute();
      const back = await client.query(`${selectCorrection} WHERE c.id = $1`, [found.replaces]);
      restored = back.rows[0] ? toCorrection(back.rows[0]) : null;
    }
    const after = await client.query(`${selectCorrection} WHERE c.id = $1`, [found.id]);
    await client.query('COMMIT');
    return { undone: toCorrection(after.rows[0]!), restored };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/**
 * The corrections of one account the user may correct: those in force, or (`history`) every one
 * ever set, newest first, each with its ledger row as it is now.
 *
 * @example
 * const inForce = await listCorrections(pool, { username: 'anna', account: '1000000001' });
 */
export async function listCorrections(pool: pg.Pool, input: { username: string; account: string; history?: boolean }): Promise<Correction[]> {
  await correctingUser(pool, input.username, input.account);
  const { rows } = await pool.query(`${selectCorrection}
    WHERE c.account_uid = $1 AND ($2 OR (c.undone_at IS NULL AND c.replaced_by IS NULL))
    ORDER BY c.id DESC`, [input.account, input.history ?? false]);
  return rows.map(toCorrection);
}

/**
 * The deposits and withdrawals of one account (their amount legs) that a classification can be
 * set on, newest first, with the correction in force on each.
 *
 * @example
 * const rows = await correctableRows(pool, { username: 'anna', account: '1000000001', limit: 50 });
 */
export async function correctableRows(pool: pg.Pool, input: { username: string; account: string; kind?: 'deposit' | 'withdrawal'; limit?: number }): Promise<CorrectableRow[]> {
  await correctingUser(pool, input.username, input.account);
  const { rows } = await pool.query(
    `SELECT l.source || ':' || l.source_id AS row, l.wallet, l.leg, to_char(l.ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS ts,
            l.coin, l.amount::text AS amount, l.kind, l.counterparty,
            c.id::text AS correction_id, c.classification, c.price::text AS price, c.price_currency
     FROM ledger l
     LEFT JOIN ledger_corrections_in_force c
       ON c.account_uid = l.account_uid AND c.wallet = l.wallet AND c.source = l.source AND c.source_id = l.source_id AND c.leg = l.leg
     WHERE l.account_uid = $1 AND l.kind IN ('deposit', 'withdrawal') AND ($2::text IS NULL OR l.kind = $2)
     ORDER BY l.ts DESC, l.source, l.source_id LIMIT $3`, [input.account, input.kind ?? null, input.limit ?? 100]);
  return rows.map((r) => ({
    row: r.row, wallet: r.wallet, leg: r.leg, ts: r.ts, coin: r.coin, amount: r.amount, kind: r.kind, counterparty: r.counterparty,
    correction: r.correction_id === null ? null : { id: r.correction_id, classification: r.classification, price: r.price, priceCurrency: r.price_currency },
  }));
}
