import { type FaultSpec, noFaults } from './parseFaultSpec.js';
import { seededUnit } from './seededUnit.js';

export type FaultKind = '5xx' | '429' | 'drop' | 'malformed' | 'slow' | 'unknown-field';

export interface FaultDecision {
  /** The one failure this answer gets, if any. */
  failure: '5xx' | '429' | 'drop' | 'malformed' | null;
  /** HTTP status of a 5xx failure. */
  status: number;
  delayMs: number;
  unknownField: boolean;
}

const none: FaultDecision = Object.freeze({ failure: null, status: 0, delayMs: 0, unknownField: false });
const statuses = [500, 502, 503, 504] as const;

/**
 * Decides, deterministically from the seed, which faults a request meets. The n-th time the
 * same request (method, URL, body, key) arrives it gets the same decision in every run, so a
 * fault drill is repeatable even with many concurrent streams, and a retry can succeed.
 *
 * @example
 * const faults = new FaultInjector(1, parseFaultSpec('5xx=0.1'));
 * faults.decide('GET /api/v2/...').failure; // '5xx' about one time in ten
 */
export class FaultInjector {
  readonly injected: Record<FaultKind, number> = { '5xx': 0, '429': 0, drop: 0, malformed: 0, slow: 0, 'unknown-field': 0 };
  private readonly seen = new Map<string, number>();
  private readonly active: boolean;

  constructor(private readonly seed: number, readonly spec: FaultSpec = noFaults) {
    this.active = spec['5xx'] + spec['429'] + spec.drop + spec.malformed + spec.slow + spec['unknown-field'] > 0;
  }

  decide(requestKey: string): FaultDecision {
    if (!this.active) return none;
    const n = this.seen.get(requestKey) ?? 0;
    this.seen.set(requestKey, n + 1);
    const u = seededUnit(this.seed, requestKey, n * 3);
    const s = this.spec;
    let failure: FaultDecision['failure'] = null;
    let edge = s['5xx'];
    if (u < edge) failure = '5xx';
    else if (u < (edge += s['429'])) failure = '429';
    else if (u < (edge += s.drop)) failure = 'drop';
    else if (u < (edge += s.malformed)) failure = 'malformed';
    const slow = seededUnit(this.seed, requestKey, n * 3 + 1) < s.slow;
    const unknownField = failure === null && seededUnit(this.seed, requestKey, n * 3 + 2) < s['unknown-field'];
    if (failure) this.injected[failure]++;
    if (slow) this.injected.slow++;
    if (unknownField) this.injected['unknown-field']++;
    return { failure, status: statuses[Math.floor(u * 1e6) % statuses.length] ?? 500, delayMs: slow ? s.slowMs : 0, unknownField };
  }
}
