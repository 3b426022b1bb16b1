import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/sandbox/server/RateLimiter.js';

describe('RateLimiter', () => {
  it('allows exactly the per-second rate at once, then refills at that rate', () => {
    const limiter = new RateLimiter();
    const granted = Array.from({ length: 15 }, () => limiter.take('u|E1', 10, 1000)).filter(Boolean).length;
    expect(granted).toBe(10);
    expect(limiter.take('u|E1', 10, 1050)).toBe(false); // half a token
    expect(limiter.take('u|E1', 10, 1100)).toBe(true); // one token after 1/10 s
  });

  it('never stores more than one second of tokens (no burst after idling)', () => {
    const limiter = new RateLimiter();
    limiter.take('u|E5', 1, 0);
    const afterIdle = [limiter.take('u|E5', 1, 60_000), limiter.take('u|E5', 1, 60_000)];
    expect(afterIdle).toEqual([true, false]);
  });

  it('keeps separate budgets per key', () => {
    const limiter = new RateLimiter();
    expect(limiter.take('a|E5', 1, 0)).toBe(true);
    expect(limiter.take('b|E5', 1, 0)).toBe(true);
    expect(limiter.take('a|E5', 1, 0)).toBe(false);
  });
});
