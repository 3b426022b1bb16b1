import { describe, expect, it } from 'vitest';
import { checkPage } from '../../src/extract/pageCheck.js';
import type { Page } from '../../src/extract/streamDef.js';

const T = 1_700_000_000_000;
const req = { start: T, end: T + 1_000, cursor: undefined, limit: 3, idField: 'id', timeField: 'ts' };
const rec = (id: string, ts = T + 500) => ({ id, ts: String(ts) });
const page = (records: Record<string, unknown>[], over: Partial<Page> = {}): Page => ({ records, others: [], next: undefined, cursorFromServer: false, ...over });

describe('checkPage', () => {
  it('reads the next cursor from the smallest id inside the window, and ends the window on a short page', () => {
    expect(checkPage(page([rec('30'), rec('20'), rec('10')]), req)).toMatchObject({ next: '10', done: false });
    expect(checkPage(page([rec('30'), rec('20')]), req)).toMatchObject({ next: '20', done: true });
    expect(checkPage(page([rec('30'), rec('20'), rec('1', T + 5_000)]), req)).toMatchObject({ next: '20', done: false });
  });

  it('takes a cursor the exchange names when it does not skip below the page', () => {
    expect(checkPage(page([rec('30'), rec('20'), rec('10')], { next: '10', cursorFromServer: true }), req)).toMatchObject({ next: '10' });
    expect(checkPage(page([rec('30'), rec('20'), rec('10')], { next: '4', cursorFromServer: true }), req).fault).toMatch(/lies below its smallest id 10/);
  });

  it('counts entries that are not objects toward a full page', () => {
    expect(checkPage(page([rec('30'), rec('20')], { others: ['x'] }), req)).toMatchObject({ next: '20', done: false });
  });

  it('finds every fault that would move the cursor past records', () => {
    expect(checkPage(page([rec('30'), rec('20'), rec('10')]), { ...req, cursor: '10' }).fault).toMatch(/below 10 holds id 30/);
    expect(checkPage(page([rec('30'), rec('5'), rec('20')]), req).fault).toMatch(/not newest first/);
    expect(checkPage(page([rec('9'), rec('8'), rec('7')], { next: '12', cursorFromServer: true }), { ...req, cursor: '10' }).fault).toMatch(/did not move down/);
    expect(checkPage(page([rec(''), rec(''), rec('')]), req).fault).toMatch(/without a usable cursor/);
  });
});
