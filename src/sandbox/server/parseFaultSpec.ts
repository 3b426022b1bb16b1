import { TradeledgerError } from '../../errors.js';

/** Probabilities (0..1) of each injected fault, per request. */
export interface FaultSpec {
  '5xx': number;
  '429': number;
  drop: number;
  malformed: number;
  slow: number;
  /** Delay of a slow response. */
  slowMs: number;
  'unknown-field': number;
}

export const faultSyntax =
  'comma-separated KIND=RATE, RATE from 0 to 1; KIND is 5xx, 429, drop, malformed, slow (slow=RATE:MS, default 1000 ms) or unknown-field. Example: 5xx=0.10,429=0.05,drop=0.02,malformed=0.01,slow=0.05:1500,unknown-field=0.2';

export const noFaults: Readonly<FaultSpec> = Object.freeze({ '5xx': 0, '429': 0, drop: 0, malformed: 0, slow: 0, slowMs: 1000, 'unknown-field': 0 });

/**
 * Parses a `--faults` spec. An empty spec means no faults.
 *
 * @example
 * parseFaultSpec('5xx=0.1,slow=0.05:1500'); // { '5xx': 0.1, slow: 0.05, slowMs: 1500, ... }
 */
export function parseFaultSpec(spec: string): FaultSpec {
  const out: FaultSpec = { ...noFaults };
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [kind = '', value = ''] = part.split('=');
    const [rateText = '', msText] = value.split(':');
    const rate = Number(rateText);
    if (!(kind in out) || kind === 'slowMs') throw bad(`unknown fault kind "${kind}"`);
    if (rateText === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) throw bad(`fault rate "${value}" for ${kind} is not a number from 0 to 1`);
    if (msText !== undefined && kind !== 'slow') throw bad(`only slow takes a delay (":MS"), not ${kind}`);
    out[kind as Exclude<keyof FaultSpec, 'slowMs'>] = rate;
    if (msText !== undefined) {
      const ms = Number(msText);
      if (!Number.isInteger(ms) || ms < 0) throw bad(`slow delay "${msText}" must be whole milliseconds`);
      out.slowMs = ms;
    }
  }
  const exclusive = out['5xx'] + out['429'] + out.drop + out.malformed;
  if (exclusive > 1) throw bad('the rates of 5xx, 429, drop and malformed add up to more than 1');
  return out;
}

function bad(problem: string): TradeledgerError {
  return new TradeledgerError('BAD_FAULT_SPEC', `bad --faults spec: ${problem}`, { kind: 'config', hint: `Write it as ${faultSyntax}` });
}
