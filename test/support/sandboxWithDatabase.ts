import { afterAll, beforeAll } from 'vitest';
import { freshDatabase } from './database.js';
import type { FreshDatabase } from './database.js';
import { startTestSandbox } from './sandbox.js';
import type { RunningSandbox } from './sandbox.js';

/**
 * A test file's sandbox and fresh database: started before its tests, closed and dropped after.
 * Read the fields inside tests (they are set by beforeAll).
 *
 * @example
 * const env = sandboxWithDatabase();
 * it('...', async () => { await runSync(testSyncOptions(env.sandbox, env.fresh.db)); });
 */
export function sandboxWithDatabase(): { readonly sandbox: RunningSandbox; readonly fresh: FreshDatabase } {
  const env = {} as { sandbox: RunningSandbox; fresh: FreshDatabase };
  beforeAll(async () => {
    env.sandbox = await startTestSandbox();
    env.fresh = await freshDatabase();
  });
  afterAll(async () => {
    await env.sandbox?.close();
    await env.fresh?.drop();
  });
  return env;
}
