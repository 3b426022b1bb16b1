import { spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = path.join(root, 'bin', 'tradeledger.js');

/** Runs the CLI; `closeAfterFirst` closes its stdout after the first chunk, as `| head -1` does. */
function run(file: string, args: string[], closeAfterFirst: boolean): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (closeAfterFirst) child.stdout.destroy();
    });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the CLI at the edges of its process', () => {
  // `tradeledger gains --help | head -1` used to end with "Error: write EPIPE" and a stack trace.
  it('ends quietly when its reader closes the pipe early', async () => {
    // Help is written in several chunks: the second write meets the closed pipe.
    const r = await run(bin, ['gains', '--help'], true);
    expect(r.stdout).toContain('Usage: tradeledger gains');
    expect(r.stderr).not.toMatch(/EPIPE|at .*\(node:/);
    expect(r.code).toBe(0);
  });

  it('names `npm ci` as the fix when its dependencies are not installed', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'tl-nodeps-'));
    try {
      for (const d of ['bin', 'src']) await cp(path.join(root, d), path.join(dir, d), { recursive: true });
      await cp(path.join(root, 'package.json'), path.join(dir, 'package.json'));
      const r = await run(path.join(dir, 'bin', 'tradeledger.js'), ['--help'], false);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('its dependencies are not installed');
      expect(r.stderr).toContain('fix: run `npm ci`');
      expect(r.stderr).not.toMatch(/^\s+at /m);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
