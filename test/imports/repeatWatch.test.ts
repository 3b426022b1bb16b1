// RepeatWatch (src/imports/repeatWatch.ts): how `import transactions` knows, as it reads, that a
// file repeats no line content and no TxHash, and so leaves out the check of the whole file in
// PostgreSQL. Two things must hold for that to be safe and worth it:
// - a value that comes twice is always caught (a miss would let two identical lines in, or drop
//   the repeated-TxHash report), however many values came between and however far the table grew;
// - distinct values leave `repeated` false (else the check is never left out), up to the limit,
//   past which it says "maybe" so that the exact check runs.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RepeatWatch } from '../../src/imports/repeatWatch.js';
import { rng } from '../support/seededRandom.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('RepeatWatch', () => {
  it('stays quiet over 300,000 distinct line keys and 300,000 distinct TxHashes', () => {
    const keys = new RepeatWatch();
    const txs = new RepeatWatch();
    for (let i = 0; i < 300_000; i++) {
      keys.addHex(sha(`line ${i}`));
      txs.addText(`0x${i.toString(16)}`);
    }
    expect(keys.repeated).toBe(false);
    expect(txs.repeated).toBe(false);
  });

  it('catches a value repeated at any distance, across every growth of its table', () => {
    const r = rng(24);
    for (let round = 0; round < 40; round++) {
      const n = 1 + Math.floor(r() * 20_000);
      const first = Math.floor(r() * n);
      const again = first + 1 + Math.floor(r() * (n - first)); // the index at which value `first` comes again
      const keys = new RepeatWatch();
      const txs = new RepeatWatch();
      let keyAt = -1; // the first value after which `repeated` was true
      let txAt = -1;
      for (let i = 0; i <= again; i++) {
        const v = i === again ? first : i;
        keys.addHex(sha(`k${v}`));
        txs.addText(`tx-${v}-${'é'.repeat(v % 3)}`);
        if (keyAt < 0 && keys.repeated) keyAt = i;
        if (txAt < 0 && txs.repeated) txAt = i;
      }
      expect({ keyAt, txAt }, `round ${round}: value ${first} again at ${again} of ${n}`).toEqual({ keyAt: again, txAt: again });
    }
  });

  it('tells TxHashes apart that differ in one character, in case or in length', () => {
    const txs = new RepeatWatch();
    for (const t of ['0xab', '0xAB', '0xab ', '0xa', 'b0xa', '0xac', '', '\u0000', 'ab'.repeat(40), 'ab'.repeat(40) + 'a']) txs.addText(t);
    expect(txs.repeated).toBe(false);
    txs.addText('0xAB');
    expect(txs.repeated).toBe(true);
  });

  it('keeps the one fingerprint an empty slot has apart, and catches it twice', () => {
    const keys = new RepeatWatch();
    keys.addHex('0000000000000000ffff');
    keys.addHex('00000000000000010000');
    expect(keys.repeated).toBe(false);
    keys.addHex('0000000000000000aaaa'); // the same first 64 bits: the same fingerprint
    expect(keys.repeated).toBe(true);
  });

  it('says "maybe" past its limit, so that the exact check runs', () => {
    const keys = new RepeatWatch(1000);
    for (let i = 0; i < 999; i++) keys.addHex(sha(`line ${i}`));
    expect(keys.repeated).toBe(false);
    keys.addHex(sha('line 999'));
    keys.addHex(sha('line 1000'));
    expect(keys.repeated).toBe(true);
  });
});
