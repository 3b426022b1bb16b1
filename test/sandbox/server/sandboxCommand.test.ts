import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../../support/signedClient.js';
import { tempFolder } from '../../support/tempFolder.js';

const bin = join(import.meta.dirname, '../../../bin/tradeledger.js');
let child: ChildProcess | undefined;
afterEach(() => { if (child && child.exitCode === null) child.kill('SIGKILL'); });

function run(args: string[]): { proc: ChildProcess; stdout: () => string; stderr: () => string; firstLine: Promise<string> } {
  const proc = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child = proc;
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const firstLine = new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    proc.on('exit', (code) => reject(new Error(`exited ${code} before its first line: ${err}`)));
  });
  return { proc, stdout: () => out, stderr: () => err, firstLine };
}

describe('tradeledger sandbox', () => {
  it('prints exactly one JSON line first, serves signed requests, and stops cleanly on SIGTERM', async () => {
    const dir = tempFolder('tl-sandbox-');
    const truthFile = join(dir, 'truth.jsonl');
    const s = run(['sandbox', '--port', '0', '--seed', '1', '--truth', truthFile]);
    const line = JSON.parse(await s.firstLine) as { baseUrl: string; accounts: Record<string, unknown>[] };
    expect(Object.keys(line)).toEqual(['baseUrl', 'accounts']);
    expect(line.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const a of line.accounts) {
      expect(Object.keys(a).sort()).toEqual(['apiKey', 'broker', 'demo', 'main', 'name', 'passphrase', 'perms', 'secretKey', 'subUids', 'uid']);
    }
    const main = line.accounts[0] as { apiKey: string; secretKey: string; passphrase: string };
    const r = await call(line.baseUrl, main, '/api/v2/spot/wallet/deposit-records');
    expect(r.json?.code).toBe('00000');
    const served = (await (await fetch(`${line.baseUrl}/_sandbox/truth`)).text()).trim().split('\n');
    expect(readFileSync(truthFile, 'utf8').trim().split('\n')).toEqual(served);
    s.proc.kill('SIGTERM');
    const [code] = await once(s.proc, 'exit');
    expect(code).toBe(0);
    expect(s.stdout().trim().split('\n')).toHaveLength(1);
    expect(s.stderr()).toContain('sandbox: serving');
  });

  it('refuses a bad --faults spec with a message and a fix, exit code 2, no stack trace', async () => {
    const s = run(['sandbox', '--faults', 'boom=1']);
    s.firstLine.catch(() => undefined);
    const [code] = await once(s.proc, 'exit');
    expect(code).toBe(2);
    expect(s.stderr()).toMatch(/bad --faults spec: unknown fault kind "boom"/);
    expect(s.stderr()).toMatch(/fix: Write it as/);
    expect(s.stderr()).not.toMatch(/\n\s+at /);
    expect(s.stdout()).toBe('');
  });

  it('refuses a bad --scale and a bad --port the same way', async () => {
    for (const args of [['--scale', 'huge'], ['--port', 'eighty']]) {
      const s = run(['sandbox', ...args]);
      s.firstLine.catch(() => undefined);
      const [code] = await once(s.proc, 'exit');
      expect(code).toBe(2);
      expect(s.stderr()).toMatch(args[0] === '--scale' ? /bad --scale: unknown scale preset 'huge'/ : /--port must be a whole number/);
    }
  });
});
