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
const maxBurstExtra = 2;

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
    const s = this.spec;
    const u = seededUnit(this.seed, requestKey, n * 3);
    let failure = this.baseFailure(u);
    if (failure === null && this.inBurst(requestKey, n)) failure = '429';
    const slow = seededUnit(this.seed, requestKey, n * 3 + 1) < s.slow;
    const unknownField = failure === null && seededUnit(this.seed, requestKey, n * 3 + 2) < s['unknown-field'];
    if (failure) this.injected[failure]++;
    if (slow) this.injected.slow++;
    if (unknownField) this.injected['unknown-field']++;
    return { failure, status: statuses[Math.floor(u * 1e6) % statuses.length] ?? 500, delayMs: slow ? s.slowMs : 0, unknownField };
  }

  private baseFailure(u: number): FaultDecision['failure'] {
    const s = this.spec;
    let edge = s['5xx'];
    if (u < edge) return '5xx';
    if (u < (edge += s['429'])) return '429';
    if (u < (edge += s.drop)) return 'drop';
    if (u < (edge += s.malformed)) return 'malformed';
    return null;
  }

  /**
   * A 429 comes in a burst: the attempt that drew it is followed by 0-2 more 429s for the same
   * request, so a client's immediate retries meet the storm too. Decided per request and
   * attempt number, never by arrival order, so concurrency cannot change it.
   */
  private inBurst(requestKey: string, n: number): boolean {
    for (let m = n - 1; m >= Math.max(0, n - maxBurstExtra); m--) {
      if (this.baseFailure(seededUnit(this.seed, requestKey, m * 3)) !== '429') continue;
      const extra = Math.floor(seededUnit(this.seed, `${requestKey}#burst`, m) * (maxBurstExtra + 1));
      if (n - m <= extra) return true;
    }
    return false;
  }
}
