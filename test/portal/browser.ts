import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { tempFolder } from '../support/tempFolder.js';

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
  }).catch(async (err: unknown) => {
    // No browser (Chromium not installed): the profile folder is not left behind.
    await rm(profile, { recursive: true, force: true });
    throw err;
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
 * Waits until htmx has finished its last swap: new content is only wired up (its hx-get and
 * triggers processed) in the settle step after the swap, so an event sent to an element that was
 * just swapped in is lost until then (htmx 2 settles 20 ms after the swap).
 *
 * @example
 * await expect.poll(() => page.locator('#preview thead th').allTextContents()).toContain('paid');
 * await htmxSettled(page);
 */
export async function htmxSettled(page: Page): Promise<void> {
  // (htmx marks the new content htmx-added until it settles. A locator, not waitForFunction:
  // the portal's CSP refuses the string evaluation that needs.)
  await expect.poll(() => page.locator('.htmx-added, .htmx-settling, .htmx-swapping, .htmx-request').count()).toBe(0);
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
  // Until the server has answered the form: a test that goes on at once (another sign-in's
  // page.goto) could abort this POST in the browser, and a failure meant to count would not.
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/login'),
    page.click('button[type=submit]'),
  ]);
}

/** Where browser tests save their screenshots: test artifacts, ignored by git. */
export const portalArtifacts = path.resolve('.tradeledger/test-artifacts/portal');

/**
 * One Chromium and one scratch folder for a test file, with the hooks that start them before the
 * file's tests, clear cookies before each test and take both away at the end.
 *
 * @example
 * const b = browserForTests('tl-portal-gains-'); ... const page = await b.context.newPage();
 */
export function browserForTests(scratchPrefix: string): { readonly context: BrowserContext; readonly scratch: string } {
  let browser: Awaited<ReturnType<typeof startChromium>> | undefined;
  let scratch: string | undefined;
  beforeAll(async () => {
    browser = await startChromium();
    scratch = tempFolder(scratchPrefix);
    await mkdir(portalArtifacts, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => { await browser!.context.clearCookies(); });
  return {
    get context() { return browser!.context; },
    get scratch() { return scratch!; },
  };
}

/**
 * POSTs a form to the portal as the signed-in page would (its cookie, its CSRF token from the
 * sign-out form, its Origin): downloads are POSTs. The page must show a portal page.
 *
 * @example
 * const res = await postForm(page, `${url}/download/file`, { account: uid, format: 'native' });
 */
export async function postForm(page: Page, url: string, fields: Record<string, string>) {
  const csrf = (await page.getAttribute('form.whoami input[name=_csrf]', 'value'))!;
  return page.request.post(url, { form: { ...fields, _csrf: csrf }, headers: { origin: new URL(url).origin } });
}
