import { describe, expect, it } from 'vitest';
import { checkPage } from '../../src/extract/pageCheck.js';
import type { Page } from '../../src/extract/streamDef.js';

const T = 1_700_000_000_000;
const req = { start: T, end: T + 1_000, cursor: undefined, limit: 3, idField: 'id', timeField: 'ts' };
const rec = (id: string, ts = T + 500) => ({ id, ts: String(ts) });
const page = (records: Record<string, unknown>[], over: Partial<Page> = {}): Page => ({ records, others: [], next: undefined, cursorFromServer: false, ...over });

describe('checkPage', () => {
  it('overlaps the next page by one record, reads ids only inside the window, and ends the window on a short page', () => {
    expect(checkPage(page([rec('30'), rec('20'), rec('10')]), req)).toMatchObject({ next: '20', overlap: '10', done: false });
    expect(checkPage(page([rec('30'), rec('20')]), req)).toMatchObject({ next: '20', overlap: undefined, done: true });
    const outside = checkPage(page([rec('30'), rec('20'), rec('1', T + 5_000)]), req);
    expect(outside).toMatchObject({ next: '30', overlap: '20', done: false });
    expect([...outside.flagged.values()].join()).toMatch(/outside the requested window/);
  });

  it('finds a false id at the end of a page: the next page does not begin with that record', () => {
    const after = { ...req, cursor: '902', overlap: '5' };
    expect(checkPage(page([rec('901'), rec('900'), rec('899')]), after).fault).toMatch(/starts at id 901, above the last record of the page before \(5\)/);
    expect(checkPage(page([rec('5'), rec('4'), rec('3')]), after).fault).toBeUndefined();
    // A current order that left between the two pages: the next one begins below it.
    const left = checkPage(page([rec('4'), rec('3')]), after);
    expect(left.fault).toBeUndefined();
    expect(left.done).toBe(true);
  });

  it('takes a cursor the exchange names when it does not skip below the page', () => {
    expect(checkPage(page([rec('30'), rec('20'), rec('10')], { next: '10', cursorFromServer: true }), req)).toMatchObject({ next: '20', overlap: '10' });
    expect(checkPage(page([], { others: ['x', 'y', 'z'], next: '7', cursorFromServer: true }), req)).toMatchObject({ next: '7', done: false });
    expect(checkPage(page([rec('30'), rec('20'), rec('10')], { next: '4', cursorFromServer: true }), req).fault).toMatch(/lies below its smallest id 10/);
  });

  it('ends the window on a page that is not full without checking its cursor fields (the official E13 sample: minId "1" beside order 121211212122)', () => {
    const sample = { id: '121211212122', ts: String(T + 500) };
    for (const v of [checkPage(page([sample], { next: '1', cursorFromServer: true }), req), checkPage(page([rec('30')], { next: 'nonsense', cursorFromServer: true }), req)]) {
      expect(v.done).toBe(true);
      expect(v.fault).toBeUndefined();
    }
    // A full page's cursor is still checked: it would be used.
    expect(checkPage(page([rec('30'), rec('20'), rec('10')], { next: '1', cursorFromServer: true }), req).fault).toMatch(/lies below its smallest id 10/);
  });

  it('names the records whose ids a fault puts in doubt, so a faulted page is stored without them', () => {
    const low = rec('5');
    const after = rec('20');
    const v = checkPage(page([rec('30'), low, after]), req);
    expect(v.fault).toMatch(/not newest first/);
    expect([...v.doubted]).toEqual([after, low]);
    const high = rec('99');
    expect([...checkPage(page([high, rec('8'), rec('7')]), { ...req, cursor: '10' }).doubted]).toEqual([high]);
    // A cursor fault doubts no id.
    expect(checkPage(page([rec('30'), rec('20'), rec('10')], { next: '1', cursorFromServer: true }), req).doubted.size).toBe(0);
  });

  it('counts entries that are not objects toward a full page', () => {
    expect(checkPage(page([rec('30'), rec('20')], { others: ['x'] }), req)).toMatchObject({ next: '30', overlap: '20', done: false });
  });

  it('finds every fault that would move the cursor past records', () => {
    expect(checkPage(page([rec('30'), rec('20'), rec('10')]), { ...req, cursor: '10' }).fault).toMatch(/below 10 holds id 30/);
    expect(checkPage(page([rec('30'), rec('5'), rec('20')]), req).fault).toMatch(/not newest first/);
    expect(checkPage(page([], { others: ['x', 'y', 'z'], next: '12', cursorFromServer: true }), { ...req, cursor: '10' }).fault).toMatch(/did not move down/);
    expect(checkPage(page([rec(''), rec(''), rec('')]), req).fault).toMatch(/without a usable cursor/);
  });
});
