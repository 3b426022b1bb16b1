import { parse } from 'lossless-json';

export type JsonParse = { ok: true; value: unknown } | { ok: false; problem: string };

/**
 * Parses JSON text keeping every number as its original text (a lossless-json LosslessNumber,
 * read with toDecimalString). Never throws: bad JSON comes back as a problem.
 *
 * @example
 * const parsed = parseJsonLossless('{"t":-8.9E-8}');
 * if (parsed.ok) toDecimalString((parsed.value as { t: unknown }).t); // '-0.000000089'
 */
export function parseJsonLossless(text: string): JsonParse {
  try {
    return { ok: true, value: parse(text) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `not valid JSON (${reason})` };
  }
}
