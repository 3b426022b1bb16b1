import { readFile } from 'node:fs/promises';
import { TradeledgerError } from '../errors.js';
import { GainsDecimal } from './gainsDecimal.js';
import type { Disposal } from './gainsEvent.js';
import { systemErrorWords } from '../systemErrorWords.js';

/**
 * US specific identification: the user's own record of which acquisition lots each disposal
 * used. Treas. Reg. § 1.1012-1(j) (T.D. 10000, 89 FR 56480, 9 July 2024; IRB 2024-31,
 * https://www.irs.gov/irb/2024-31_irb): when a taxpayer disposes of some of the units of a digital
 * asset held in one wallet or account, the basis and holding period are those of the units
 * specifically identified no later than the date and time of the disposal (by an identifier such
 * as purchase date and time or price, in the taxpayer's books and records, (j)(3)(i); for units a
 * broker holds, told to the broker, (j)(3)(ii), or in 2025 in the books and records, Notice
 * 2025-7); without an identification the units are taken first in, first out within that wallet
 * (j)(1)/(2). So a selection may only name a lot in the disposal's own wallet, acquired before the
 * disposal, and the part of a disposal no selection names stays FIFO.
 *
 * The file (CSV, one header line, comma-separated, no quoting):
 *
 *     disposal,lot,quantity
 *     spot_fills|s2|base,spot_fills|b1|base,0.5
 *     2025-03-01 BTC 1.5,imported_transactions|tx7|in,1.5
 *
 * - disposal: the disposal's ledger row (source|source_id|leg, as in gains.csv's disposal_refs),
 *   or `DATE ASSET QUANTITY` (the local day, asset and quantity of exactly one disposal);
 * - lot: the acquisition's ledger row (gains.csv's acquisition_refs, or holdings);
 * - quantity: how many units to take from that lot (> 0).
 */
export interface LotSelection {
  /** 1-based line in the file, for errors. */
  line: number;
  lot: string;
  quantity: GainsDecimal;
}

/** One disposal's selections, with how the file named it. */
export interface SelectedDisposal {
  /** The disposal column as written. */
  name: string;
  line: number;
  lots: LotSelection[];
  used: boolean;
}

/** Parsed, validated selections, looked up per disposal while matching. */
export interface LotSelections {
  file: string;
  /** The selections for a disposal, or undefined; throws when a DATE ASSET QUANTITY name fits two disposals. */
  forDisposal(event: Disposal): SelectedDisposal | undefined;
  /** Entries no disposal took (reported as data-quality notes). */
  unused(): SelectedDisposal[];
}

const HEADER = ['disposal', 'lot', 'quantity'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const QUANTITY = /^\d+(\.\d+)?$/;

/**
 * Reads and validates a lot-selection file completely before any matching: every problem is a
 * TradeledgerError naming the file, line and column.
 *
 * @example
 * const selections = await readLotSelections('lots.csv');
 * lotMatcher({ method: 'fifo', pools: 'wallet', selections });
 */
export async function readLotSelections(file: string): Promise<LotSelections> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new TradeledgerError('GAINS_LOTS_FILE', `cannot read the lot-selection file ${file}: ${systemErrorWords(err)}`, {
      kind: 'config', hint: 'Check the path given to --lots.',
    });
  }
  return parseLotSelections(file, text);
}

/**
 * The parser behind {@link readLotSelections}, on text already read.
 *
 * @example
 * parseLotSelections('lots.csv', 'disposal,lot,quantity\nspot_fills|s2|base,spot_fills|b1|base,0.5\n');
 */
export function parseLotSelections(file: string, text: string): LotSelections {
  const fail = (line: number, column: number | null, message: string, hint: string): never => {
    const where = column === null ? `${file} line ${line}` : `${file} line ${line} column ${column} (${HEADER[column - 1]})`;
    throw new TradeledgerError('GAINS_LOTS_FILE', `${where}: ${message}`, { kind: 'config', hint, details: { file, line, column } });
  };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((c) => c.trim().toLowerCase());
  if (header.length !== HEADER.length || header.some((c, i) => c !== HEADER[i])) {
    fail(1, null, `the header is "${lines[0] ?? ''}", expected "${HEADER.join(',')}"`, 'Start the file with the line disposal,lot,quantity.');
  }
  const byRef = new Map<string, SelectedDisposal>();
  const byDay = new Map<string, SelectedDisposal>();
  const seen = new Set<string>();
  for (let i = 1; i < lines.length; i++) {
    const line = i + 1;
    const raw = lines[i]!;
    if (raw.trim() === '') continue;
    if (raw.includes('"')) fail(line, null, 'quoted fields are not supported', 'Write each field bare, without quotes (ledger ids contain no commas).');
    const cells = raw.split(',').map((c) => c.trim());
    if (cells.length !== HEADER.length) fail(line, null, `has ${cells.length} fields, expected 3 (disposal,lot,quantity)`, 'Give one disposal, one lot and one quantity per line.');
    const [disposal, lot, quantity] = cells as [string, string, string];
    let key: string;
    let table: Map<string, SelectedDisposal>;
    if (disposal.includes('|')) {
      if (disposal.split('|').length !== 3 || disposal.split('|').some((p) => p === '')) {
        fail(line, 1, `"${disposal}" is not a ledger row id source|source_id|leg`, 'Copy the id from gains.csv\'s disposal_refs column.');
      }
      key = disposal;
      table = byRef;
    } else {
      const parts = disposal.split(/\s+/);
      if (parts.length !== 3 || !DAY.test(parts[0]!) || Number.isNaN(Date.parse(`${parts[0]}T00:00:00Z`)) || !QUANTITY.test(parts[2]!) || new GainsDecimal(parts[2]!).isZero()) {
        fail(line, 1, `"${disposal}" is neither a ledger row id (source|source_id|leg) nor "YYYY-MM-DD ASSET QUANTITY"`, 'Name the disposal by its id from gains.csv, or by its local date, asset and quantity, e.g. 2025-03-01 BTC 1.5.');
      }
      key = `${parts[0]} ${parts[1]!.toUpperCase()} ${new GainsDecimal(parts[2]!).toFixed()}`;
      table = byDay;
    }
    if (lot.split('|').length !== 3 || lot.split('|').some((p) => p === '')) {
      fail(line, 2, `"${lot}" is not a ledger row id source|source_id|leg`, 'Copy the acquisition\'s id from gains.csv\'s acquisition_refs column.');
    }
    if (!QUANTITY.test(quantity) || new GainsDecimal(quantity).isZero()) {
      fail(line, 3, `"${quantity}" is not a positive decimal quantity`, 'Write the units taken from the lot as a plain decimal, e.g. 0.5.');
    }
    if (seen.has(`${key}\u0000${lot}`)) fail(line, 2, `the lot ${lot} is named twice for the disposal ${disposal}`, 'Give each lot once per disposal, with the total quantity taken from it.');
    seen.add(`${key}\u0000${lot}`);
    let entry = table.get(key);
    if (!entry) { entry = { name: disposal, line, lots: [], used: false }; table.set(key, entry); }
    entry.lots.push({ line, lot, quantity: new GainsDecimal(quantity) });
  }

  return {
    file,
    forDisposal(event: Disposal): SelectedDisposal | undefined {
      let entry: SelectedDisposal | undefined;
      if (byRef.size > 0) {
        for (const ref of event.ref.split(';')) { entry = byRef.get(ref); if (entry) break; }
      }
      if (!entry && byDay.size > 0) {
        entry = byDay.get(`${event.day} ${event.asset.toUpperCase()} ${event.quantity.toFixed()}`);
        if (entry?.used) {
          fail(entry.line, 1, `"${entry.name}" fits more than one disposal (another is ${event.ref})`, 'Name each of these disposals by its ledger row id from gains.csv instead.');
        }
      }
      return entry;
    },
    unused(): SelectedDisposal[] {
      return [...byRef.values(), ...byDay.values()].filter((e) => !e.used).sort((a, b) => a.line - b.line);
    },
  };
}
