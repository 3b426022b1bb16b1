import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';

/**
 * Debian's Chromium, headless, driven by playwright-core with a fresh profile folder. The flags
 * keep it off the network (this machine's is closed) and quiet.
 *
 * @example
 * const browser = await startChromium(); const page = await browser.context.newPage(); ... await browser.close();
 */
export async function startChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = await mkdtemp(path.join(tmpdir(), 'tl-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.TRADELEDGER_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Fills and submits the portal's login form (where it lands is the caller's to check).
 *
 * @example
 * await submitLogin(page, portal.url, { username: 'anna', password: 'long enough pw' });
 */
export async function submitLogin(page: Page, baseUrl: string, who: { username: string; password: string }): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.fill('input[name=username]', who.username);
  await page.fill('input[name=password]', who.password);
  await page.click('button[type=submit]');
}
