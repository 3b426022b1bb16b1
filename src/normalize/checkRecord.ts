import { recordShapes } from './recordShapes.js';
import type { CheckedResource, FieldSpec } from './recordShapes.js';
import type { EnumField } from './enumSpellings.js';
import { toDecimalString } from './decimalString.js';
import { parseExchangeTime } from './parseExchangeTime.js';
import { normalizeEnum } from './normalizeEnum.js';
import { readFeeDetail } from './readFeeDetail.js';
import { isNumberText } from './isNumberText.js';

/**
 * The words every problem about an amount with a sign the API never uses carries: the `ledger`
 * view (sql/schema/views/ledger.sql) leaves out records whose problems hold them.
 */
export const unusedSign = 'a sign the API never uses for this field';

export interface RecordProblem {
  field: string;
  code: 'not_an_object' | 'missing' | 'not_text' | 'bad_number' | 'negative_amount' | 'bad_time' | 'unknown_enum' | 'bad_fee_detail';
  message: string;
}

/**
 * Lists what is wrong with one raw record, so the loader can store it raw and flag it instead
 * of dropping it or stopping the stream. An empty list means the record is usable. Never throws.
 *
 * @example
 * checkRecord('deposits', { orderId: '1', coin: 'USDT', dest: 'internal', size: '111,1', status: 'success', cTime: '1700000000000' });
 * // [{ field: 'size', code: 'bad_number', message: 'size: not a decimal number: "111,1"' }]
 */
export function checkRecord(resource: CheckedResource, raw: unknown): RecordProblem[] {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return [{ field: '', code: 'not_an_object', message: `a ${resource} record must be a JSON object` }];
  }
  const record = raw as Record<string, unknown>;
  const problems: RecordProblem[] = [];
  for (const [field, spec] of shapeFields(resource)) {
    const problem = checkField(field, spec, record[field]);
    if (problem !== null) problems.push(problem);
  }
  return problems;
}

// A resource's shape is fixed; its field list is built once, not once per record.
const fieldLists = new Map<CheckedResource, readonly (readonly [string, FieldSpec])[]>();

/**
 * The fields checkRecord checks for a resource, with their specs, in shape order.
 *
 * @example
 * shapeFields('deposits')[0] // ['orderId', 'id']
 */
export function shapeFields(resource: CheckedResource): readonly (readonly [string, FieldSpec])[] {
  let list = fieldLists.get(resource);
  if (list === undefined) {
    list = Object.entries(recordShapes[resource]) as [string, FieldSpec][];
    fieldLists.set(resource, list);
  }
  return list;
}

/**
 * Checks one field of a record against its spec: null when fine. checkRecord runs it for every
 * field of the shape; a loader that has already parsed some fields runs it for the others.
 *
 * @example
 * checkField('size', 'decimal', '111,1') // { field: 'size', code: 'bad_number', message: 'size: not a decimal number: "111,1"' }
 */
export function checkField(field: string, spec: FieldSpec, value: unknown): RecordProblem | null {
  const optional = spec.endsWith('?');
  const kind = (optional ? spec.slice(0, -1) : spec) as Exclude<FieldSpec, `${string}?`>;
  if (value === undefined || value === null || value === '') {
    return optional ? null : { field, code: 'missing', message: `required field ${field} is ${value === '' ? 'empty' : 'missing'}` };
  }
  switch (kind) {
    case 'id':
    case 'text':
      // Ids are documented as strings; the E10 sample also sends numbers, which are still usable.
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || isNumberText(value)
        ? null
        : { field, code: 'not_text', message: `${field} must be text, got ${Array.isArray(value) ? 'an array' : typeof value}` };
    case 'decimal': {
      const parsed = toDecimalString(value);
      return parsed.ok ? null : { field, code: 'bad_number', message: `${field}: ${parsed.problem}` };
    }
    case 'amount': {
      const parsed = toDecimalString(value);
      if (!parsed.ok) return { field, code: 'bad_number', message: `${field}: ${parsed.problem}` };
      return parsed.value.startsWith('-')
        ? { field, code: 'negative_amount', message: `${field}: ${JSON.stringify(value)} is negative, ${unusedSign}; kept raw, left out of the ledger` }
        : null;
    }
    case 'time': {
      const parsed = parseExchangeTime(value);
      return parsed === null || parsed.ok ? null : { field, code: 'bad_time', message: `${field}: ${parsed.problem}` };
    }
    case 'feeDetail': {
      const shape = readFeeDetail(value);
      return shape.problems.length === 0 ? null : { field, code: 'bad_fee_detail', message: `${field}: ${shape.problems.join('; ')}` };
    }
    default: {
      const parsed = normalizeEnum(kind as EnumField, value);
      return parsed === null || parsed.ok ? null : { field, code: 'unknown_enum', message: `${field}: ${parsed.problem}` };
    }
  }
}
