import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSource } from '../../src/imports/fileSource.js';
import { systemErrorWords } from '../../src/systemErrorWords.js';
import { runCli } from '../support/runCli.js';

let dir: string;
beforeAll(async () => { dir = await mkdtemp(path.join(tmpdir(), 'tl-unreadable-')); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('a file that cannot be read is named with what is wrong, in words', () => {
  it('says what a code means and keeps the code', () => {
    expect(systemErrorWords(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe('no such file or folder (ENOENT)');
    expect(systemErrorWords(Object.assign(new Error('x'), { code: 'EADDRINUSE' }))).toBe('the address is in use (another program listens there) (EADDRINUSE)');
    expect(systemErrorWords(Object.assign(new Error('x'), { code: 'EWHATEVER' }))).toBe('EWHATEVER');
    expect(systemErrorWords(new Error('plain'))).toBe('plain');
  });

  it('a missing file and a folder, to import', async () => {
    await expect(fileSource(path.join(dir, 'none.csv'))).rejects.toThrow(`cannot read ${path.join(dir, 'none.csv')}: no such file or folder (ENOENT)`);
    await expect(fileSource(dir)).rejects.toThrow(`cannot read ${dir}: it is a folder, not a file (EISDIR)`);
    // the CLI: one line and its fix, exit 2, before any database is needed
    const r = await runCli(['import', 'transactions', path.join(dir, 'none.csv'), '--wallet', 'w'], { DATABASE_URL: 'postgres://127.0.0.1:1/none' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`tradeledger: cannot read ${path.join(dir, 'none.csv')}: no such file or folder (ENOENT)\n  fix: Check the path and that you may read the file.\n`);
  });
});
