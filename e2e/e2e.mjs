// End-to-end check of the built page (dist/ served under /tools/gpu/): it mounts, shows the
// ranking, makes no request outside its origin, logs no errors, and renders inside an iframe.
// Usage: node e2e/e2e.mjs http://127.0.0.1:PORT [screenshot-dir]
import { chromium } from 'playwright-core';

const base = process.argv[2];
const shots = process.argv[3];
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
let passed = 0, failed = 0;
const check = (name, ok, detail = '') => {
  if (ok) { passed++; console.log(`ok   ${name}`); } else { failed++; console.log(`FAIL ${name} ${detail}`); }
};

async function open(url, viewport, locale) {
  const ctx = await browser.newContext({ viewport, locale });
  const page = await ctx.newPage();
  const errors = [], foreign = [];
  page.on('pageerror', e => errors.push(String(e)));
  page.on('console', m => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('request', r => { if (!r.url().startsWith(base) && !r.url().startsWith('data:')) foreign.push(r.url()); });
  await page.goto(url);
  return { ctx, page, errors, foreign };
}

try {
  const { ctx, page, errors, foreign } = await open(`${base}/tools/gpu/`, { width: 1280, height: 1000 }, 'en-US');
  await page.waitForSelector('[data-testid=ranking] tbody tr', { timeout: 20000 });
  const rows = await page.locator('[data-testid=ranking] tbody tr').count();
  check('ranking lists the catalog cards', rows >= 40, `rows=${rows}`);
  check('memory figure shown in GiB', /GiB/.test(await page.locator('[data-testid=memory-total]').innerText()));
  await page.locator('[data-testid=seq]').fill('32768');
  await page.waitForFunction(() => location.search.includes('s=v1.'));
  check('URL carries a share link after an edit', page.url().includes('s=v1.'));
  const shared = page.url();
  if (shots) await page.screenshot({ path: `${shots}/en.png`, fullPage: false });
  await page.locator('[data-testid=lang]').click();
  check('language switch to Chinese', (await page.locator('body').innerText()).includes('每卡显存'));
  if (shots) await page.screenshot({ path: `${shots}/zh.png`, fullPage: false });
  check('no console errors', errors.length === 0, errors.join(' | '));
  check('no request leaves the origin', foreign.length === 0, foreign.join(' '));
  await ctx.close();

  const again = await open(shared, { width: 1280, height: 1000 }, 'en-US');
  await again.page.waitForSelector('[data-testid=seq]');
  check('share link reopens with the same input', (await again.page.locator('[data-testid=seq]').inputValue()) === '32768');
  await again.ctx.close();

  const bad = await open(`${base}/tools/gpu/?s=v1.%%%garbage`, { width: 1280, height: 1000 }, 'en-US');
  await bad.page.waitForSelector('[data-testid=ranking]');
  check('damaged link shows a message and the page still works', await bad.page.locator('[data-testid=link-error]').count() === 1);
  check('damaged link: no page error', bad.errors.length === 0, bad.errors.join(' | '));
  await bad.ctx.close();

  const narrow = await open(`${base}/tools/gpu/`, { width: 375, height: 800 }, 'zh-CN');
  await narrow.page.waitForSelector('[data-testid=ranking]');
  const overflow = await narrow.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  check('375 px: page does not scroll sideways', overflow <= 1, `overflow=${overflow}px`);
  check('browser language zh-CN picks Chinese', (await narrow.page.locator('body').innerText()).includes('显卡'));
  if (shots) await narrow.page.screenshot({ path: `${shots}/narrow.png` });
  await narrow.ctx.close();

  const host = await open(`${base}/host.html`, { width: 1280, height: 900 }, 'en-US');
  const frame = host.page.frameLocator('#planner');
  await frame.locator('[data-testid=ranking] tbody tr').first().waitFor({ timeout: 20000 });
  check('renders inside an iframe', (await frame.locator('[data-testid=ranking] tbody tr').count()) >= 40);
  check('iframe: no errors', host.errors.length === 0, host.errors.join(' | '));
  if (shots) await host.page.screenshot({ path: `${shots}/iframe.png` });
  await host.ctx.close();
} catch (e) {
  check('e2e run', false, String(e));
} finally {
  await browser.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
