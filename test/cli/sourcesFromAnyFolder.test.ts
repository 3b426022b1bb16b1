import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase, type FreshDatabase } from '../support/database.js';

const bin = fileURLToPath(new URL('../../bin/tradeledger.js', import.meta.url));

// Run from the TypeScript sources (an edited tree, or dist/ not built), the CLI must read the
// project's own tsconfig.json wherever it is started: tsx looks in the working folder by default,
// and the portal's pages (JSX) then failed with "React is not defined" (a 500 on every page).
describe('the CLI run from its sources in another folder', () => {
  let fresh: FreshDatabase;
  let cwd: string;
  beforeAll(async () => {
    fresh = await freshDatabase();
    cwd = await mkdtemp(path.join(tmpdir(), 'tl-elsewhere-'));
  });
  afterAll(async () => {
    await fresh?.drop();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  // One `serve` from `cwd`: its sign-in page, and its stderr read once it has ended.
  const serveOnce = async (): Promise<{ status: number; body: string; stderr: string }> => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => { const { port: p } = s.address() as { port: number }; s.close(() => resolve(p)); });
    });
    const child = spawn(process.execPath, [bin, 'serve'], {
      cwd, stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', DATABASE_URL: fresh.url, TRADELEDGER_FROM_SOURCE: '1', TRADELEDGER_PORTAL_PORT: String(port) },
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d) => { stderr += String(d); });
    child.stdout.on('data', (d) => { stdout += String(d); });
    const closed = new Promise((resolve) => child.on('close', resolve));
    let answer: { status: number; body: string };
    try {
      await expect.poll(() => fetch(`http://127.0.0.1:${port}/login`).then((r) => r.status, () => 0), { timeout: 90_000 }).not.toBe(0);
      const page = await fetch(`http://127.0.0.1:${port}/login`);
      answer = { status: page.status, body: await page.text() };
      // the "portal at" line comes after any note on stderr
      await expect.poll(() => stdout, { timeout: 30_000 }).toContain('tradeledger portal at');
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
    // read once the process has ended: every byte it wrote has arrived
    return { ...answer, stderr };
  };

  it('serves the portal\'s sign-in page, and says on its first start that no one can sign in yet', async () => {
    const first = await serveOnce();
    expect(first.status, first.stderr).toBe(200);
    expect(first.body).toContain('Sign in');
    expect(first.stderr).toContain('note: no portal users yet, so no one can sign in: add one with `tradeledger users add <name> --role admin`');
    await sql`INSERT INTO portal_users (username, password_hash, role) VALUES ('anna', 'not-a-hash', 'admin')`.execute(fresh.db);
    const withUser = await serveOnce();
    expect(withUser.status, withUser.stderr).toBe(200);
    expect(withUser.stderr).not.toContain('no portal users yet');
  }, 240_000);
});
