import { describe, expect, it } from 'vitest';
import { parseFaultSpec } from '../../../src/sandbox/server/parseFaultSpec.js';

describe('parseFaultSpec', () => {
  it('reads every kind, with a slow delay', () => {
    const spec = parseFaultSpec('5xx=0.10,429=0.05,drop=0.02,malformed=0.01,slow=0.05:1500,unknown-field=0.2');
    expect(spec).toEqual({ '5xx': 0.1, '429': 0.05, drop: 0.02, malformed: 0.01, slow: 0.05, slowMs: 1500, 'unknown-field': 0.2 });
  });

  it('treats an empty spec as no faults', () => {
    expect(parseFaultSpec('')['5xx']).toBe(0);
  });

  it.each([
    ['boom=0.1', /unknown fault kind "boom"/],
    ['5xx=2', /not a number from 0 to 1/],
    ['5xx=', /not a number from 0 to 1/],
    ['drop=0.1:100', /only slow takes a delay/],
    ['slow=0.1:fast', /whole milliseconds/],
    ['5xx=0.6,429=0.6', /more than 1/],
  ])('refuses %s with a message naming the problem and the syntax', (text, problem) => {
    expect(() => parseFaultSpec(text)).toThrow(problem);
    try {
      parseFaultSpec(text);
    } catch (err) {
      expect((err as { hint?: string }).hint).toMatch(/KIND=RATE/);
    }
  });
});
