import { parseJsonLossless } from './losslessJson.js';
import { toDecimalString } from './decimalString.js';
import { isNumberText } from './isNumberText.js';
import type { FeeFormat } from './feeFormat.js';

/** newFees amounts, signed as on the wire, in plain decimal text; absent c/d/r read as "0". */
export interface NewFeesPart {
  kind: 'newFees';
  c: string;
  d: string;
  r: string;
  t: string;
  raw: Record<string, string>;
}

/** One coin's fee in the legacy, fill-object or fill-array form, signed as on the wire. */
export interface CoinFeePart {
  kind: 'coinFee';
  coin: string;
  deduction: boolean;
  totalDeductionFee: string | null;
  totalFee: string | null;
  raw: Record<string, string>;
}

export type FeePart = NewFeesPart | CoinFeePart;

export interface FeeDetailShape {
  format: FeeFormat;
  parts: FeePart[];
  problems: string[];
}

/**
 * Reads a feeDetail in any of its forms into coin-agnostic parts, without deciding who paid
 * what (parseFeeDetail does that). Numbers never pass through a JS float. Never throws.
 *
 * @example
 * readFeeDetail('{"newFees":{"c":0,"d":0,"r":-0.1,"t":-0.1}}');
 * // { format: 'new', parts: [{ kind: 'newFees', c: '0', d: '0', r: '-0.1', t: '-0.1', raw: {...} }], problems: [] }
 */
export function readFeeDetail(input: unknown): FeeDetailShape {
  if (input === undefined || input === null) return empty();
  if (typeof input === 'string') {
    if (input.trim() === '') return empty();
    let parsed: unknown;
    try {
      parsed = parseJsonLossless(input);
    } catch (error) {
      return malformed('malformed', `feeDetail is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    if (parsed === null) return empty();
    return readValue(parsed);
  }
  return readValue(input);
}

function readValue(value: unknown): FeeDetailShape {
  if (Array.isArray(value)) {
    if (value.length === 0) return empty();
    return collect('fill-array', value.map((item, index) => readCoinFee(item, `[${index}]`, 'feeCoin')));
  }
  if (!isObject(value)) return malformed('malformed', `feeDetail must be a JSON object or array, got ${typeof value}`);
  // null or "" stand for "absent" (api-notes.md), on any key.
  const keys = Object.keys(value).filter((key) => !isAbsent(value[key]));
  if (keys.length === 0) return empty();
  if (keys.includes('newFees')) return collect('new', [readNewFees(value['newFees'], 'newFees')]);
  if ('feeCoin' in value) return collect('fill-object', [readCoinFee(value, '', 'feeCoin')]);
  // Legacy: keyed by coin. The old variant nests newFees in a coin object; when it does, the
  // newFees copy is the fee and any sibling legacy keys repeat it, so only newFees counts.
  const nested = keys.filter((key) => isObject(value[key]) && !isAbsent((value[key] as Record<string, unknown>)['newFees']));
  if (nested.length > 0) {
    return collect('new', nested.map((key) => readNewFees((value[key] as Record<string, unknown>)['newFees'], `${key}.newFees`)));
  }
  return collect('legacy', keys.map((key) => readCoinFee(value[key], key, 'feeCoinCode')));
}

type PartResult = { part: FeePart } | { problems: string[] };

function readNewFees(value: unknown, path: string): PartResult {
  if (!isObject(value)) return { problems: [`${path} must be an object with c, d, r, t`] };
  const problems: string[] = [];
  const raw: Record<string, string> = {};
  const amounts: Record<'c' | 'd' | 'r' | 't', string> = { c: '0', d: '0', r: '0', t: '0' };
  for (const field of ['c', 'd', 'r', 't'] as const) {
    const read = readAmount(value[field], `${path}.${field}`, raw);
    if (read.problem !== undefined) problems.push(read.problem);
    else if (read.value !== null) amounts[field] = read.value;
    else if (field === 't') problems.push(`${path}.t (the fee payable) is missing`);
  }
  if (problems.length > 0) return { problems };
  return { part: { kind: 'newFees', ...amounts, raw } };
}

function readCoinFee(value: unknown, path: string, coinField: 'feeCoin' | 'feeCoinCode'): PartResult {
  const at = path === '' ? '' : `${path}.`;
  if (!isObject(value)) return { problems: [`${path || 'feeDetail'} must be an object with deduction, ${coinField}, totalDeductionFee, totalFee`] };
  const problems: string[] = [];
  const raw: Record<string, string> = {};
  const coin = value[coinField];
  if (typeof coin !== 'string' || coin.trim() === '') problems.push(`${at}${coinField} (the fee coin) is missing`);
  const deduction = readFlag(value['deduction']);
  if (deduction === null) {
    const seen = value['deduction'];
    problems.push(seen === undefined || seen === null || seen === ''
      ? `${at}deduction (yes/no) is missing`
      : `${at}deduction must be yes/no or true/false, got ${JSON.stringify(isNumberText(seen) ? seen.value : String(seen))}`);
  }
  const totalDeductionFee = readAmount(value['totalDeductionFee'], `${at}totalDeductionFee`, raw);
  const totalFee = readAmount(value['totalFee'], `${at}totalFee`, raw);
  for (const read of [totalDeductionFee, totalFee]) if (read.problem !== undefined) problems.push(read.problem);
  if (problems.length > 0 || typeof coin !== 'string' || deduction === null) return { problems };
  return {
    part: { kind: 'coinFee', coin: coin.trim(), deduction, totalDeductionFee: totalDeductionFee.value, totalFee: totalFee.value, raw },
  };
}

function readAmount(value: unknown, path: string, raw: Record<string, string>): { value: string | null; problem?: string } {
  if (isAbsent(value)) return { value: null };
  const parsed = toDecimalString(value);
  if (!parsed.ok) return { value: null, problem: `${path}: ${parsed.problem}` };
  raw[path] = isNumberText(value) ? value.value : String(value);
  return { value: parsed.value };
}

/** An amount or coin field that is not there: absent, null or ''. */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** A deduction flag as the exchange writes it (true/false, 'yes'/'no', any case); null when it is neither. */
export function readFlag(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  if (text === 'yes' || text === 'true') return true;
  if (text === 'no' || text === 'false') return false;
  return null;
}

function collect(format: FeeFormat, results: PartResult[]): FeeDetailShape {
  const problems = results.flatMap((result) => ('problems' in result ? result.problems : []));
  if (problems.length > 0) return { format, parts: [], problems };
  return { format, parts: results.flatMap((result) => ('part' in result ? [result.part] : [])), problems: [] };
}

function empty(): FeeDetailShape {
  return { format: 'empty', parts: [], problems: [] };
}

function malformed(format: FeeFormat, problem: string): FeeDetailShape {
  return { format, parts: [], problems: [problem] };
}

function isObject(value: unknown): value is Record<string, unknown> {
  // lossless-json numbers are objects too; they are not JSON objects.
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isNumberText(value);
}
