import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../../src/sandbox/server/FaultInjector.js';
import { parseFaultSpec } from '../../../src/sandbox/server/parseFaultSpec.js';

const spec = parseFaultSpec('5xx=0.1,429=0.05,drop=0.02,malformed=0.01,slow=0.05:1500,unknown-field=0.2');
const keys = Array.from({ length: 4000 }, (_, i) => `GET /api/v2/tax/margin-record?idLessThan=${i}`);

describe('FaultInjector', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const run = (seed: number) => { const f = new FaultInjector(seed, spec); return keys.map((k) => f.decide(k).failure); };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });

  it('injects each kind at about its rate', () => {
    const f = new FaultInjector(1, spec);
    keys.forEach((k) => f.decide(k));
    expect(f.injected['5xx'] / keys.length).toBeGreaterThan(0.07);
    expect(f.injected['5xx'] / keys.length).toBeLessThan(0.13);
    expect(f.injected['429'] / keys.length).toBeGreaterThan(0.03);
    expect(f.injected['unknown-field'] / keys.length).toBeGreaterThan(0.12);
    expect(f.injected.drop).toBeGreaterThan(20);
    expect(f.injected.malformed).toBeGreaterThan(10);
    expect(f.injected.slow).toBeGreaterThan(100);
  });

  it('gives a repeated request a fresh decision, so a retry can succeed', () => {
    const f = new FaultInjector(1, parseFaultSpec('5xx=0.5'));
    const outcomes = Array.from({ length: 40 }, () => f.decide('GET /same').failure);
    expect(outcomes).toContain('5xx');
    expect(outcomes).toContain(null);
  });

  it('answers 429 in bursts: a retry right after a 429 is usually refused too', () => {
    const f = new FaultInjector(3, parseFaultSpec('429=0.3'));
    let first429 = 0;
    let retry429 = 0;
    for (const k of keys) {
      const a = f.decide(k).failure;
      const b = f.decide(k).failure;
      if (a === '429') { first429++; if (b === '429') retry429++; }
    }
    // Independent draws would give about 0.3; bursts of 1-3 give about 0.3 + 0.7 * 2/3.
    expect(retry429 / first429).toBeGreaterThan(0.55);
    const runs = Array.from({ length: 12 }, () => f.decide('GET /burst').failure);
    expect(runs.join(',')).not.toMatch(/(429,){9}/);
  });

  it('does nothing without a spec', () => {
    const f = new FaultInjector(1);
    expect(keys.every((k) => f.decide(k).failure === null)).toBe(true);
  });
});
