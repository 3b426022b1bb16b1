import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ttyProgress } from '../../src/cli/progress/ttyProgress.js';
import { jsonLinesProgress } from '../../src/cli/progress/jsonLinesProgress.js';

function capture(): { stream: PassThrough & { columns: number; isTTY: boolean }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { columns: 160, isTTY: true });
  let text = '';
  stream.on('data', (d) => { text += String(d); });
  return { stream, text: () => text };
}

describe('progress', () => {
  it('draws one live line per account and stream with records, windows, failures and rate waits', () => {
    const out = capture();
    const p = ttyProgress(out.stream as unknown as NodeJS.WriteStream);
    p.sink({ type: 'partition-start', account: 'main', stream: 'deposits', partition: 'all', windows: 2 });
    p.sink({ type: 'page', account: 'main', stream: 'deposits', partition: 'all', records: 40, inserted: 40, updated: 0, window: 1, windows: 2 });
    p.sink({ type: 'window-done', account: 'main', stream: 'deposits', partition: 'all', window: 1, windows: 2 });
    p.sink({ type: 'windows-added', account: 'main', stream: 'deposits', partition: 'all', windows: 3 });
    p.sink({ type: 'partition-done', account: 'main', stream: 'deposits', partition: 'all', records: 40, inserted: 40, updated: 0, unchanged: 0 });
    p.sink({ type: 'partition-start', account: 'main', stream: 'marginRecords', partition: 'crossed', windows: 25 });
    p.sink({ type: 'partition-failed', account: 'main', stream: 'marginRecords', partition: 'crossed', code: 'API_429', message: 'gave up' });
    p.sink({ type: 'rate-wait', account: 'main', endpoint: 'marginRecords', ms: 1500 });
    p.stop();
    const lines = out.text().split('\n');
    const deposits = lines.find((l) => l.includes('main/deposits'))!;
    expect(deposits).toMatch(/\s40 records\s+windows 1\/5/);
    expect(deposits).toMatch(/done/);
    expect(lines.find((l) => l.includes('main/marginRecords'))).toMatch(/FAILED \(1\)\s+rate waits 1\.5s/);
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
