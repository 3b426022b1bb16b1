import { describe, expect, it } from 'vitest';
import { ApiFailure } from '../../../src/sandbox/server/ApiFailure.js';
import { RequestParams } from '../../../src/sandbox/server/RequestParams.js';
import { resolveWindow } from '../../../src/sandbox/server/resolveWindow.js';

const DAY = 86_400_000;
const now = 1_800_000_000_000;
const q = (s: string) => RequestParams.fromQuery(s);
const codeOf = (f: () => unknown) => { try { f(); return 'none'; } catch (e) { return (e as ApiFailure).code; } };

describe('resolveWindow', () => {
  it('requires both times when asked (40019) and refuses bad ones (40017)', () => {
    expect(codeOf(() => resolveWindow(q(`endTime=${now}`), now, { required: true }))).toBe('40019');
    expect(codeOf(() => resolveWindow(q('startTime=abc'), now, {}))).toBe('40017');
    expect(codeOf(() => resolveWindow(q(`startTime=${now}&endTime=${now - 1}`), now, {}))).toBe('40017');
  });

  it('refuses a wide span with 00001 naming the days, or 40705', () => {
    const wide = q(`startTime=${now - 31 * DAY}&endTime=${now}`);
    expect(() => resolveWindow(wide, now, { maxSpanDays: 30, spanError: '00001' })).toThrow('cannot be greater than 30 days');
    expect(codeOf(() => resolveWindow(q(`startTime=${now - 91 * DAY}&endTime=${now}`), now, { maxSpanDays: 90, spanError: '40705' }))).toBe('40705');
    expect(resolveWindow(q(`startTime=${now - 30 * DAY}&endTime=${now}`), now, { maxSpanDays: 30 })).toEqual({ startTime: now - 30 * DAY, endTime: now });
  });

  it('enforces a horizon (40704) and defaults the start to it', () => {
    expect(codeOf(() => resolveWindow(q(`startTime=${now - 90 * DAY - 1}`), now, { horizonDays: 90 }))).toBe('40704');
    expect(resolveWindow(q(''), now, { horizonDays: 90 })).toEqual({ startTime: now - 90 * DAY });
  });

  it('fills the E11 three-month default window', () => {
    expect(resolveWindow(q(''), now, { defaultSpanDays: 90 })).toEqual({ startTime: now - 90 * DAY });
    expect(resolveWindow(q(`startTime=${now - 200 * DAY}`), now, { defaultSpanDays: 90 })).toEqual({ startTime: now - 200 * DAY, endTime: now - 110 * DAY });
  });
});
