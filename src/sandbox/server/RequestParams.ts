import { ApiFailure } from './ApiFailure.js';

const DIGITS = /^\d{1,19}$/;
const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * Typed, validating access to a request's parameters (query string or JSON body). Every getter
 * throws the exchange's own error: 40019 for a missing required value, 40017 for a bad one.
 * An empty string counts as absent, as the real API treats it.
 *
 * @example
 * const p = RequestParams.fromQuery('limit=50&coin=BTC');
 * p.limit({ default: 100, max: 100 }); // 50
 */
export class RequestParams {
  private constructor(private readonly values: ReadonlyMap<string, unknown>) {}

  static fromQuery(rawQuery: string): RequestParams {
    return new RequestParams(new Map(new URLSearchParams(rawQuery)));
  }

  static fromObject(body: Record<string, unknown>): RequestParams {
    return new RequestParams(new Map(Object.entries(body)));
  }

  /** The value, or undefined when absent or empty. Non-strings are refused: the API takes Strings. */
  optional(name: string): string | undefined {
    const v = this.values.get(name);
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v !== 'string') throw ApiFailure.of('40017', `${name} must be a String (got ${typeof v})`);
    return v;
  }

  required(name: string): string {
    const v = this.optional(name);
    if (v === undefined) throw ApiFailure.of('40019', name);
    return v;
  }

  /** An enum value; unknown spellings are refused with the allowed list. */
  choice<T extends string>(name: string, allowed: readonly T[], fallback?: T): T | undefined {
    const v = this.optional(name);
    if (v === undefined) return fallback;
    if (!(allowed as readonly string[]).includes(v)) {
      throw ApiFailure.of('40017', `${name} must be one of ${allowed.join(', ')} (got ${v})`);
    }
    return v as T;
  }

  requiredChoice<T extends string>(name: string, allowed: readonly T[]): T {
    this.required(name);
    return this.choice(name, allowed) as T;
  }

  /** A Unix-millisecond time. */
  time(name: string): number | undefined {
    const v = this.optional(name);
    if (v === undefined) return undefined;
    if (!DIGITS.test(v) || v.length > 15) throw ApiFailure.of('40017', `${name} must be Unix time in milliseconds (got ${v})`);
    return Number(v);
  }

  /** A decimal integer id, as a bigint so 19-digit ids compare exactly. */
  id(name: string): bigint | undefined {
    const v = this.optional(name);
    if (v === undefined) return undefined;
    if (!DIGITS.test(v)) throw ApiFailure.of('40017', `${name} must be a decimal id (got ${v})`);
    return BigInt(v);
  }

  /** A positive decimal amount, kept as its text. */
  amount(name: string, required: boolean): string | undefined {
    const v = required ? this.required(name) : this.optional(name);
    if (v !== undefined && (!DECIMAL.test(v) || /^[0.]+$/.test(v))) {
      throw ApiFailure.of('40017', `${name} must be a positive decimal number (got ${v})`);
    }
    return v;
  }

  /**
   * The page size. Over the maximum is REJECTED with 40017 rather than clamped: a client that
   * asks for more than the endpoint allows has a bug we want it to see, not a silently short page.
   */
  limit(bounds: { readonly default: number; readonly max: number }): number {
    const v = this.optional('limit');
    if (v === undefined) return bounds.default;
    if (!/^\d{1,6}$/.test(v) || Number(v) < 1) throw ApiFailure.of('40017', `limit must be a whole number from 1 to ${bounds.max} (got ${v})`);
    const n = Number(v);
    if (n > bounds.max) throw ApiFailure.of('40017', `limit must be at most ${bounds.max} (got ${v})`);
    return n;
  }

  /** A list value from a JSON body (ipList, permList, orderList). */
  list(name: string, max: number): unknown[] | undefined {
    const v = this.values.get(name);
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) throw ApiFailure.of('40017', `${name} must be a list`);
    if (v.length > max) throw ApiFailure.of('40017', `${name} has ${v.length} items; at most ${max} are allowed`);
    return v;
  }
}
