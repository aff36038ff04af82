/**
 * The HTML report opens in a real browser: Debian's headless Chromium (/usr/bin/chromium),
 * driven by playwright-core, with JavaScript off and every network request blocked. Skipped,
 * with the reason printed, when Chromium is absent (.ci/run installs it).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { DEFAULT_KUBE_VERSION } from '../src/kube/version.js';
import { buildReport } from '../src/report/build.js';
import { formatHtml } from '../src/report/format-html.js';

const CHROMIUM = '/usr/bin/chromium';
const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'simulate', 'path.yaml');
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.log(`report-html-chromium: skipped: ${CHROMIUM} is absent (apt-get install -y chromium; .ci/run installs it)`);

describe.skipIf(!haveChromium)('the HTML report in headless Chromium', () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'admission-lint-html-'));
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Playwright starts it with a fresh temporary profile (its own --user-data-dir).
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('shows the critical-resources matrix and one table per webhook, without JavaScript or network', async () => {
    const report = await buildReport({ paths: [FIXTURES], kubeVersion: DEFAULT_KUBE_VERSION, toolVersion: 'test' });
    const file = join(dir, 'report.html');
    writeFileSync(file, formatHtml(report));
    const context = await browser.newContext({ javaScriptEnabled: false });
    const requests: string[] = [];
    await context.route('**/*', (route) => {
      requests.push(route.request().url());
      return route.request().url().startsWith('file:') ? route.continue() : route.abort();
    });
    const page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
    expect(await page.title()).toBe('admission-lint blast radius (Kubernetes 1.35)');
    const headers = await page.locator('#critical-matrix thead th').allTextContents();
    // Columns: the webhooks that intercept a critical target; b-injector and z-owner intercept none.
    expect(headers).toEqual(['resource (what breaks)', 'a-defaulter / defaults.a.example.com', 'a-defaulter / labels.a.example.com', 'c-audit / audit.c.example.com']);
    expect(await page.locator('#not-in-matrix').textContent()).toBe('2 other webhooks intercept none of them: b-injector / inject.b.example.com, z-owner / owner.z.example.com.');
    const rows = page.locator('#critical-matrix tbody tr');
    expect(await rows.count()).toBe(report.critical.targets.length);
    // The row of the kube-system add-ons' pods: a-defaulter (Fail) blocks them; labels.a only on UPDATE (its condition); c-audit (Ignore) can deny.
    const podsRow = rows.filter({ hasText: "the system add-ons' pods" });
    const cells = await podsRow.locator('td').allTextContents();
    expect(cells).toEqual(['BLOCKS (CREATE, UPDATE)', 'can deny (UPDATE)', 'can deny (CREATE, UPDATE)']);
    // A column header links to the webhook's table.
    expect(await page.locator('#critical-matrix thead th a').first().getAttribute('href')).toBe('#webhook-1');
    // The styling is inline and applies: a blocking cell is highlighted.
    expect(await podsRow.locator('td.blocks').first().evaluate((td) => (globalThis as unknown as { getComputedStyle(element: unknown): { backgroundColor: string } }).getComputedStyle(td).backgroundColor)).toBe('rgb(255, 215, 213)');
    expect(await page.locator('table.webhook').count()).toBe(report.webhooks.length);
    expect(await page.locator('h3').allTextContents()).toContain('validating c-audit / audit.c.example.com');
    expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([]);
    if (process.env.REPORT_SCREENSHOT) await page.screenshot({ path: process.env.REPORT_SCREENSHOT, fullPage: true });
    await context.close();
  }, 60_000);
});
