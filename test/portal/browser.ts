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
 * const browser = await startChromium(); const page = await browser.newPage(); ... await browser.close();
 */
export async function startChromium(): Promise<{ context: BrowserContext; newPage(): Promise<Page>; close(): Promise<void> }> {
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
    newPage: () => openPage(context),
    close: async () => {
      await settleWithin(context.close(), BROWSER_STEP_MS, 'close the browser');
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/**
 * How long a browser step that Playwright gives no timeout of its own (opening a page, closing a
 * page or the browser) may take. Chromium has been seen never to answer such a request
 * (microsoft/playwright#3939, #4761): one CI run's sign-in test then sat until vitest's 180 s
 * timeout with no word of which step. A busy machine opens a page in seconds, so 45 s means stuck.
 */
const BROWSER_STEP_MS = 45_000;

const LATE = Symbol('late');

/** Resolves with the step's value, or with `undefined` once `ms` pass without one. */
export async function settleWithin<T>(step: Promise<T>, ms: number, what: string): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  // (A sentinel, not undefined: page.close() itself resolves with undefined.)
  const late = new Promise<typeof LATE>((resolve) => { timer = setTimeout(() => resolve(LATE), ms); });
  try {
    const result = await Promise.race([step, late]);
    if (result !== LATE) return result;
    process.stderr.write(`browser tests: Chromium did not ${what} within ${ms / 1000} s\n`);
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A new page in `context`, asked for again once if Chromium does not open the first, whose
 * close() gives up waiting (with a word on stderr) rather than hang the test file. A page that is
 * still not open the second time fails the test with the step named.
 */
async function openPage(context: BrowserContext): Promise<Page> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    const opening = context.newPage();
    const page = await settleWithin(opening, BROWSER_STEP_MS, 'open a new page');
    if (page === undefined) {
      // If it opens after all, it is closed, not left beside the next one.
      opening.then((late) => late.close().catch(() => undefined), () => undefined);
      continue;
    }
    const close = page.close.bind(page);
    page.close = async (options) => { await settleWithin(close(options), BROWSER_STEP_MS, 'close a page'); };
    return page;
  }
  throw new Error(`Chromium did not open a new page within ${BROWSER_STEP_MS / 1000} s, twice: the browser is stuck (not the portal)`);
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
 * const b = browserForTests('tl-portal-gains-'); ... const page = await b.newPage();
 */
export function browserForTests(scratchPrefix: string): { readonly context: BrowserContext; readonly scratch: string; newPage(): Promise<Page> } {
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
    newPage: () => browser!.newPage(),
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
