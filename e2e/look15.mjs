// Session 15 look: the partial-recompute field and the demand-profile error, en and zh.
import { chromium } from 'playwright-core';
const base = process.argv[2], out = process.argv[3];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'] });
for (const [locale, tag] of [['en-US', 'en'], ['zh-CN', 'zh']]) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 1000 }, locale });
  const page = await ctx.newPage();
  const errors = [];
  page.on('pageerror', e => errors.push(String(e)));
  await page.goto(`${base}/tools/gpu/`);
  await page.waitForSelector('[data-testid=ranking] tbody tr', { timeout: 20000 });
  await page.evaluate(() => document.querySelectorAll('details').forEach(d => d.open = true));
  await page.locator('[data-testid=auto]').uncheck();
  await page.locator('[data-testid=recompute]').selectOption('full');
  await page.locator('[data-testid=recompute-layers]').fill('8');
  await page.waitForTimeout(500);
  const field = page.locator('[data-testid=recompute-layers]');
  await field.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${out}/recompute-${tag}.png` });
  await page.locator('[data-testid=own-demand]').fill('100, x');
  await page.locator('[data-testid=own-demand]').scrollIntoViewIfNeeded();
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${out}/demand-${tag}.png` });
  const flops = await page.locator('[data-testid=flops]').getAttribute('title');
  console.log(tag, 'errors', errors.length, 'demand error:', await page.locator('[data-testid=own-demand-error]').innerText(), '| flops title:', flops);
  await ctx.close();
}
await browser.close();
