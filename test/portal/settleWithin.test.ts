import { describe, expect, it, vi } from 'vitest';
import { settleWithin } from './browser.js';

// The browser tests' bound on Playwright calls that have no timeout of their own (newPage, close).
describe('settleWithin', () => {
  it('passes a step\'s value through, and says nothing of a step that resolves with undefined (page.close)', async () => {
    const say = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await settleWithin(Promise.resolve('page'), 1_000, 'open a new page')).toBe('page');
      expect(await settleWithin(Promise.resolve(undefined), 1_000, 'close a page')).toBeUndefined();
      expect(say).not.toHaveBeenCalled();
    } finally {
      say.mockRestore();
    }
  });

  it('gives up on a step that never settles, naming it on stderr', async () => {
    const say = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await settleWithin(new Promise<string>(() => undefined), 20, 'close a page')).toBeUndefined();
      expect(say).toHaveBeenCalledWith('browser tests: Chromium did not close a page within 0.02 s\n');
    } finally {
      say.mockRestore();
    }
  });
});
