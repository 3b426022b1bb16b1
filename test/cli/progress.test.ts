import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { ttyProgress } from '../../src/cli/progress/ttyProgress.js';
import { progressFrame } from '../../src/cli/progress/progressFrame.js';
import { jsonLinesProgress } from '../../src/cli/progress/jsonLinesProgress.js';

function capture(): { stream: PassThrough & { columns: number; isTTY: boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { columns: 160, isTTY: true });
  let text = '';
  stream.on('data', (d) => { text += String(d); });
  return { stream, text: () => text };
}

describe('progress', () => {
  it('draws totals, failures and the streams still running, and nothing after stop()', () => {
    const out = capture();
    let t = 0;
    const p = ttyProgress(out.stream as unknown as NodeJS.WriteStream, () => t);
    p.sink({ type: 'partition-start', account: 'main', stream: 'deposits', partition: 'all', windows: 2 });
    p.sink({ type: 'page', account: 'main', stream: 'deposits', partition: 'all', records: 40, inserted: 40, updated: 0, window: 1, windows: 2 });
    p.sink({ type: 'window-done', account: 'main', stream: 'deposits', partition: 'all', window: 1, windows: 2 });
    p.sink({ type: 'windows-added', account: 'main', stream: 'deposits', partition: 'all', windows: 3 });
    p.sink({ type: 'partition-start', account: 'main', stream: 'spotFills', partition: 'all', windows: 4 });
    p.sink({ type: 'page', account: 'main', stream: 'spotFills', partition: 'all', records: 7, inserted: 7, updated: 0, window: 1, windows: 4 });
    p.sink({ type: 'partition-start', account: 'main', stream: 'marginRecords', partition: 'crossed', windows: 25 });
    p.sink({ type: 'partition-failed', account: 'main', stream: 'marginRecords', partition: 'crossed', code: 'API_429', message: 'gave up' });
    p.sink({ type: 'rate-wait', account: 'main', endpoint: 'marginRecords', ms: 1500 });
    t = 12_000;
    p.stop();
    const lines = out.text().replace(/\x1b\[(\d*F|2K|J)/g, '').split('\n');
    expect(lines[0]).toBe('sync 00:12  47 records  partitions 0/3 done  windows 1/34  2 streams running  1 FAILED  rate waits 1.5s');
    expect(lines[1]).toBe('  FAILED main/marginRecords (1): API_429 gave up');
    // The slowest first: spotFills has 0 of 4 windows done, deposits 1 of 5.
    expect(lines[2]).toMatch(/^ {2}main\/spotFills\s+7 records {2}windows 0\/4 {2}00:12$/);
    expect(lines[3]).toMatch(/^ {2}main\/deposits\s+40 records {2}windows 1\/5 {2}00:12$/);
    const before = out.text();
    p.sink({ type: 'page', account: 'main', stream: 'deposits', partition: 'all', records: 1, inserted: 1, updated: 0, window: 2, windows: 5 });
    p.stop();
    expect(out.text(), 'stop() ends the display: a later event or stop draws nothing').toBe(before);
  });

  it('redraws at least once a second while no event comes, so the clocks move during a long query', () => {
    vi.useFakeTimers();
    try {
      const out = capture();
      let t = 0;
      const p = ttyProgress(out.stream as unknown as NodeJS.WriteStream, () => t);
      p.sink({ type: 'partition-start', account: 'main', stream: 'prices', partition: 'all', windows: 0 });
      t = 100;
      vi.advanceTimersByTime(100);
      const first = out.text();
      expect(first).toContain('sync 00:00');
      // Nothing new within the second: nothing is written.
      t = 900;
      vi.advanceTimersByTime(800);
      expect(out.text()).toBe(first);
      // A second on without an event (the stream waits on its query): the frame is drawn again.
      t = 2_100;
      vi.advanceTimersByTime(1_200);
      expect(out.text().slice(first.length)).toContain('sync 00:02');
      p.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('never draws more than rows - 2 lines, nor a line as wide as the terminal', () => {
    const streams = new Map(Array.from({ length: 120 }, (_, i) => [`account-${i % 12}/stream-with-a-long-name-${i}`, {
      records: i, windowsDone: i % 5, windowsTotal: 5, partitionsDone: 0, partitions: 1, failed: i % 10 === 0 ? 1 : 0,
      lastFailure: `API_HTTP_500 ${'the exchange answered badly '.repeat(5)}`, startedAt: i,
    }] as const));
    for (const [rows, columns] of [[24, 100], [10, 40], [3, 80], [50, 200]] as const) {
      const frame = progressFrame({ streams, rateWaitMs: 0, startedAt: 0, now: 1000 }, rows, columns);
      expect(frame.length, `${rows} rows`).toBe(rows - 2);
      for (const l of frame) expect(l.length).toBeLessThan(columns);
    }
    const frame = progressFrame({ streams, rateWaitMs: 0, startedAt: 0, now: 1000 }, 24, 100);
    expect(frame[0]).toMatch(/108 streams running {2}12 FAILED/);
    expect(frame.filter((l) => l.startsWith('  FAILED'))).toHaveLength(6);
    expect(frame).toContain('  ... and 6 more failed streams (listed after the run)');
    expect(frame.at(-1)).toBe('  ... and 95 more running');
    // The slowest running streams (0 of 5 windows) come first.
    expect(frame[8]).toMatch(/windows 0\/5/);
  });

  it('writes one JSON object per event, summing the many small rate waits', () => {
    const out = capture();
    const p = jsonLinesProgress(out.stream);
    p.sink({ type: 'rate-wait', account: 'main', endpoint: 'marginRecords', ms: 400 });
    p.sink({ type: 'rate-wait', account: 'main', endpoint: 'marginRecords', ms: 600 });
    p.sink({ type: 'gap', account: 'main', stream: 'spotOrders', partition: 'all', from: '2024-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z' });
    p.stop();
    const events = out.text().trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => e.type)).toEqual(['rate-wait', 'gap']);
    expect(events[0]).toMatchObject({ account: 'main', endpoint: 'marginRecords', ms: 1000, count: 2 });
  });
});
