import { describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs } from '../../src/api/backoff.js';

describe('backoffMs', () => {
  it('doubles per attempt, jittered within the upper half, and stops at the cap', () => {
    for (let i = 0; i < 50; i++) {
      const first = backoffMs(1, 200, 5000);
      const third = backoffMs(3, 200, 5000);
      expect(first).toBeGreaterThanOrEqual(100);
      expect(first).toBeLessThanOrEqual(200);
      expect(third).toBeGreaterThanOrEqual(400);
      expect(third).toBeLessThanOrEqual(800);
      expect(backoffMs(20, 200, 5000)).toBeLessThanOrEqual(5000);
    }
  });
});

describe('retryAfterMs', () => {
  it('reads delta seconds and HTTP dates', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(['0.5'])).toBe(500);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
  });

  it('ignores a missing or unreadable header', () => {
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
