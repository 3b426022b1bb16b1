import { describe, expect, it } from 'vitest';
import { ChunkedSeries } from '../../../src/sandbox/data/chunkedSeries.js';
import { lazyChunk } from '../../../src/sandbox/data/chunk.js';

interface Rec { id: string; symbol: string }

/** A series whose records are built on demand, counting how many were built. */
function countingSeries(count: number, symbolOf: (j: number) => string): { series: ChunkedSeries<Rec>; built: () => number } {
  let built = 0;
  const series = new ChunkedSeries<Rec>();
  series.addChunk(lazyChunk({
    count, start: 0, end: count * 10, key: 3, salt: 0n,
    make: (j, _t, id) => { built++; return { id: id.toString(), symbol: symbolOf(j) }; },
  }));
  return { series, built: () => built };
}

const bySymbol = (symbol: string) => ({ limit: 1000, where: [['symbol', symbol]] as const, filter: (r: Rec) => r.symbol === symbol });

describe('filtered queries skip records known to fail (FieldColumn)', () => {
  it('answers exactly as the plain filter does, and builds each record once across filter values', () => {
    const symbols = ['A', 'B', 'C', 'D'];
    const { series, built } = countingSeries(400, (j) => symbols[(j * 7) % 4]!);
    for (const s of [...symbols, 'nothing']) {
      const plain = series.query({ limit: 1000, filter: (r) => r.symbol === s });
      expect(series.query(bySymbol(s))).toEqual(plain);
    }
    const before = built();
    for (const s of symbols) series.query(bySymbol(s));
    // Only the matching records are built again (100 per symbol); the misses are skipped.
    expect(built() - before).toBe(400);
  });

  it('forgets a record that is replaced, so a changed field is seen', () => {
    const { series } = countingSeries(40, (j) => (j % 2 === 0 ? 'A' : 'B'));
    expect(series.query(bySymbol('A'))).toHaveLength(20);
    const first = series.at(1);
    series.replace(1, { ...first, symbol: 'A' });
    expect(series.query(bySymbol('A'))).toHaveLength(21);
    expect(series.query(bySymbol('B'))).toHaveLength(19);
  });

  it('sees appended records, and gives up on fields with too many values without changing answers', () => {
    const { series } = countingSeries(600, (j) => `S${j}`);
    expect(series.query(bySymbol('S5')).map((r) => r.symbol)).toEqual(['S5']);
    expect(series.query(bySymbol('S599')).map((r) => r.symbol)).toEqual(['S599']);
    series.append({ id: '999999999999', symbol: 'S5' }, 10_000, 999_999_999_999n);
    expect(series.query(bySymbol('S5')).map((r) => r.id)).toEqual(['999999999999', series.at(5).id]);
  });
});
