import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { lineProgress } from '../../src/cli/progress/lineProgress.js';
import { gainsProgressText } from '../../src/cli/gainsCommand.js';

function capture(isTTY: boolean, columns = 60): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = Object.assign(new PassThrough(), { columns, isTTY });
  let text = '';
  stream.on('data', (d) => { text += String(d); });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

describe('lineProgress (the status line of gains on a terminal)', () => {
  it('redraws one line in place with the clock, fits the terminal, and clears it for good on stop()', () => {
    vi.useFakeTimers();
    try {
      const out = capture(true, 40);
      let t = 0;
      const p = lineProgress(out.stream, 'gains', () => t);
      p.update('valuing and sorting the ledger (rows come once it is sorted)');
      expect(out.text()).toBe('\r\x1b[2Kgains 00:00  valuing and sorting the le');
      // A long query sends nothing new: the clock still moves, once a second at most.
      t = 2_000;
      vi.advanceTimersByTime(2_000);
      expect(out.text().split('\r\x1b[2K').at(-1)).toBe('gains 00:02  valuing and sorting the le');
      const drawn = out.text();
      t = 2_050;
      p.update('5,000 ledger rows read');
      expect(out.text(), 'no redraw within 200 ms of the last').toBe(drawn);
      t = 2_300;
      vi.advanceTimersByTime(250);
      expect(out.text().split('\r\x1b[2K').at(-1)).toBe('gains 00:02  5,000 ledger rows read');
      p.stop();
      expect(out.text().endsWith('\r\x1b[2K'), 'stop() clears the line').toBe(true);
      const stopped = out.text();
      p.update('later');
      t = 9_000;
      vi.advanceTimersByTime(5_000);
      p.stop();
      expect(out.text(), 'nothing after stop()').toBe(stopped);
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes nothing off a terminal (a scheduler, a pipe, CI)', () => {
    vi.useFakeTimers();
    try {
      const out = capture(false);
      let t = 0;
      const p = lineProgress(out.stream, 'gains', () => t);
      p.update('valuing and sorting the ledger');
      t = 5_000;
      vi.advanceTimersByTime(5_000);
      p.stop();
      expect(out.text()).toBe('');
    } finally {
      vi.useRealTimers();
    }
  });

  it('says each stage of a gains run in words', () => {
    expect(gainsProgressText({ stage: 'reading', rows: 0, day: null, matches: 0 })).toBe('valuing and sorting the ledger (rows come once it is sorted)');
    expect(gainsProgressText({ stage: 'matching', rows: 120_000, day: '2024-06-01', matches: 4_100 })).toBe('120,000 ledger rows read, up to 2024-06-01; 4,100 matches in the tax year');
    expect(gainsProgressText({ stage: 'writing', rows: 1_234_567, day: '2025-05-06', matches: 9 })).toBe('1,234,567 ledger rows read; writing holdings and files');
  });
});
