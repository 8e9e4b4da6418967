// First result on screen (DESIGN.md §5): loads our page and gpu_poor's, both served by the same local
// server, alternately in one run, each in a fresh browser context (cold cache), and prints medians.
//   ours:     ms from navigation start to the first row of the ranking on screen: the static
//             first answer in index.html (src/ui/prerender.rs, shown on a first visit) or the
//             live ranking, whichever comes first; `live_row` is the live ranking's own time
//   gpu_poor: ms from navigation start to its first visible text in the DOM
// The same "first text" figure is printed for our page too, and first-contentful-paint for both.
// Requests that would leave the local server (gpu_poor's analytics) are aborted.
// Usage: node bench/first-result.mjs BASE_URL RUNS [with-gpu-poor]
//   ours at BASE_URL/tools/gpu/, gpu_poor at BASE_URL/gpu_poor/ (it uses absolute /gpu_poor/ paths)
import { chromium } from 'playwright-core';

const [base, runsArg, withPoor] = process.argv.slice(2);
const runs = Number(runsArg || 7);
// A teammate's share link (a Llama 3.1 70B LoRA, named: bench/share.json). The page's links
// carry the top of their answer (`&r=`, shown before the WebAssembly runs; issue 29): bench.sh
// passes such a link in SHARE_QUERY (`gpu-planner encode bench/share.json --answer`). Without
// it, the scenario alone, as links made before the answer was carried: nothing shows until the
// WebAssembly has run.
const SHARE = process.env.SHARE_QUERY || '?s=v1.eyJtb2RlbCI6ImxsYW1hLTMuMS03MGIiLCJuYW1lIjoiNzBCIExvUkEgKHNoYXJlZCkiLCJ0YXNrIjoibG9yYSJ9';
const targets = [{ name: 'ours', url: `${base}/tools/gpu/` }, { name: 'share', url: `${base}/tools/gpu/${SHARE}` }];
if (withPoor === 'with-gpu-poor') targets.push({ name: 'gpu_poor', url: `${base}/gpu_poor/` });

// Runs before any of the page's scripts: records when the first text and the first ranking row
// appear (a MutationObserver callback runs right after the script that inserted them).
const probe = () => {
  const t = (window.__firstResult = { text: null, row: null, live: null });
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'TITLE']);
  const hasText = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === 3 && child.data.trim()) return true;
      if (child.nodeType === 1 && !skip.has(child.tagName) && hasText(child)) return true;
    }
    return false;
  };
  const check = () => {
    const now = performance.now();
    if (t.text === null && document.body && hasText(document.body)) t.text = now;
    const live = document.querySelector('[data-testid=ranking] tbody tr');
    if (t.live === null && live) t.live = now;
    if (t.row === null && (live || document.querySelector('#prerender:not([hidden]) .app:not([hidden]) tbody tr'))) t.row = now;
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['hidden'] });
};

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const results = Object.fromEntries(targets.map((t) => [t.name, []]));
let encodings = {};
try {
  // Round -1 warms the browser process and the server up and is not counted.
  for (let i = -1; i < runs; i++) {
    const order = i % 2 ? [...targets].reverse() : targets; // alternate who goes first
    for (const target of order) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
      await ctx.route('**/*', (route) => (route.request().url().startsWith(base) ? route.continue() : route.abort()));
      await ctx.addInitScript(probe);
      const page = await ctx.newPage();
      if (target.name !== 'gpu_poor') {
        page.on('response', async (r) => {
          const enc = (await r.allHeaders())['content-encoding'] || 'identity';
          encodings[r.url().split('/').pop() || 'index.html'] = enc;
        });
      }
      await page.goto(target.url);
      const key = target.name === 'gpu_poor' ? 'text' : 'live';
      try {
        await page.waitForFunction((k) => window.__firstResult && window.__firstResult[k] !== null, key, { timeout: 30000 });
      } catch (e) {
        console.error(`${target.name}: no ${key === 'row' ? 'ranking row' : 'text'} within 30 s at ${target.url}`);
        process.exitCode = 1;
        throw e;
      }
      await page.waitForTimeout(300); // let first-contentful-paint be recorded
      // The trace: when the glue script and the wasm arrived (resource timing) and the
      // start-up marks the wasm sets (src/web/trace.rs).
      const m = await page.evaluate(() => {
        const res = (suffix) => performance.getEntriesByType('resource').find((e) => e.name.split('?')[0].endsWith(suffix));
        const mark = (n) => performance.getEntriesByName(`gp:${n}`)[0]?.startTime ?? null;
        return {
          ...window.__firstResult,
          fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
          html: performance.getEntriesByType('navigation')[0]?.responseEnd ?? null,
          js: res('.js')?.responseEnd ?? null,
          wasm: res('.wasm')?.responseEnd ?? null,
          start: mark('start'), catalog: mark('catalog'), scenario: mark('scenario'), plan: mark('plan'), mounted: mark('mounted'),
        };
      });
      if (i >= 0) results[target.name].push(m);
      await ctx.close();
    }
  }
} finally {
  await browser.close();
}

const median = (xs) => {
  const s = xs.filter((x) => x !== null).sort((a, b) => a - b);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f = (x) => (x === null ? 'n/a' : x.toFixed(0));
for (const [name, ms] of Object.entries(results)) {
  const list = (k) => ms.map((m) => f(m[k])).join(' ');
  if (name !== 'gpu_poor') {
    console.log(`FIRST ${name}_first_row_ms ${f(median(ms.map((m) => m.row)))} runs: ${list('row')}`);
    console.log(`FIRST ${name}_live_row_ms ${f(median(ms.map((m) => m.live)))} runs: ${list('live')}`);
    const stages = ['html', 'js', 'wasm', 'start', 'catalog', 'scenario', 'plan', 'mounted', 'live'];
    console.log(`TRACE ${name} (median ms from navigation start) ` + stages.map((k) => `${k}=${f(median(ms.map((m) => m[k])))}`).join(' '));
  }
  console.log(`FIRST ${name}_first_text_ms ${f(median(ms.map((m) => m.text)))} runs: ${list('text')}`);
  console.log(`FIRST ${name}_fcp_ms ${f(median(ms.map((m) => m.fcp)))} runs: ${list('fcp')}`);
}
console.log('FIRST ours_encodings ' + Object.entries(encodings).map(([k, v]) => `${k}=${v}`).join(' '));
