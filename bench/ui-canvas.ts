// bench/ui-canvas: the studio canvas in Chromium (Playwright) against a `yukta serve` on a private port.
// A 500-node / 2000-edge workflow (the DEF-02 caps, a valid DAG) against an empty canvas in the same run:
// time from navigation to the first frame with nodes visible, and frames per second while the mouse drags
// the pane (a requestAnimationFrame counter in the page). Targets (STU-01): load < 1.5 s, ≥ 50 fps.
// Needs the built renderer (npx vite build --config renderer/vite.config.ts) and /usr/bin/chromium.
// Run: npx tsx bench/ui-canvas.ts [--port 4337] [--loads 3] [--pan-ms 3000]
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { argNumber } from './lib';
import { CHROMIUM_ARGS, ROOT, startServer, stopServer } from './serve-process';
import { bigWorkflow } from './ui-canvas-workflow';

const PORT = argNumber('port', 4337);
const LOADS = argNumber('loads', 3);
const PAN_MS = argNumber('pan-ms', 3000);
const BASE = `http://127.0.0.1:${PORT}`;

async function save(definition: unknown): Promise<void> {
  const response = await fetch(`${BASE}/api/workflows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ session: 'default', definition }),
  });
  if (!response.ok) throw new Error(`save refused: ${await response.text()}`);
}

// Page scripts are strings: tsx wraps named functions with a `__name` helper that does not exist in the page.
/**
 * Records when a node is first visible (React Flow shows nodes once measured) or the empty canvas is loaded
 * (\`__shown\`), and when edges are first drawn (\`__edges\`; the studio draws them a frame after the nodes).
 */
const FIRST_RENDER_PROBE = `(() => {
  const visible = () => [...document.querySelectorAll('.react-flow__node')].some((n) => getComputedStyle(n).visibility === 'visible');
  const emptyLoaded = () => document.querySelector('[data-testid="canvas-empty"]') && document.querySelector('[data-testid="workflow-id-input"]')?.value;
  const tick = () => {
    if (window.__shown === undefined && (visible() || emptyLoaded())) window.__shown = performance.now();
    if (window.__edges === undefined && document.querySelector('.react-flow__edge')) window.__edges = performance.now();
    if (window.__shown === undefined || (window.__edges === undefined && !emptyLoaded())) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

/** Counts animation frames (their timestamps) until \`__counting\` is cleared. */
const FRAME_COUNTER = `(() => {
  window.__frames = [];
  window.__counting = true;
  const loop = (t) => {
    if (!window.__counting) return;
    window.__frames.push(t);
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
})()`;

/** Milliseconds from navigation start to the first frame showing a node (or the empty-canvas hint). */
async function timeToFirstRender(browser: Browser, workflowId: string): Promise<{ ms: number; edgesMs: number; nodes: number; edges: number; page: Page }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript(FIRST_RENDER_PROBE);
  await page.goto(`${BASE}/#/w/default/${workflowId}`);
  await page.waitForFunction(() => (window as unknown as { __shown?: number }).__shown !== undefined, undefined, { timeout: 30_000 });
  const ms = await page.evaluate(() => (window as unknown as { __shown: number }).__shown);
  await page.waitForFunction(
    () => (window as unknown as { __edges?: number }).__edges !== undefined || !document.querySelector('.react-flow__node'),
    undefined,
    { timeout: 30_000 },
  );
  const edgesMs = await page.evaluate(() => (window as unknown as { __edges?: number }).__edges ?? 0);
  const nodes = await page.locator('.react-flow__node').count();
  const edges = await page.locator('.react-flow__edge').count();
  return { ms, edgesMs, nodes, edges, page };
}

/** Frames per second (and the longest frame) while the mouse drags the pane back and forth. */
async function panFps(page: Page): Promise<{ fps: number; worstFrameMs: number }> {
  await page.waitForTimeout(500); // let the initial fit and measurements settle
  const canvas = (await page.getByTestId('canvas').boundingBox())!;
  // Left middle of the pane: inside the fit-view padding, clear of the toolbar (top) and controls (bottom).
  const start = { x: canvas.x + 30, y: canvas.y + canvas.height / 2 };
  await page.evaluate(FRAME_COUNTER);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  const began = Date.now();
  for (let i = 0; Date.now() - began < PAN_MS; i++) {
    const phase = (i % 60) / 60;
    await page.mouse.move(start.x + 300 * Math.sin(phase * 2 * Math.PI), start.y + 120 * Math.cos(phase * 2 * Math.PI));
  }
  await page.mouse.up();
  const frames = (await page.evaluate('window.__counting = false, window.__frames')) as number[];
  const seconds = (frames[frames.length - 1]! - frames[0]!) / 1000;
  let worst = 0;
  for (let i = 1; i < frames.length; i++) worst = Math.max(worst, frames[i]! - frames[i - 1]!);
  return { fps: (frames.length - 1) / seconds, worstFrameMs: worst };
}

async function measureCase(browser: Browser, workflowId: string) {
  const loads: Array<{ ms: number; edgesMs: number }> = [];
  let last: Awaited<ReturnType<typeof timeToFirstRender>> | null = null;
  for (let i = 0; i < LOADS; i++) {
    if (last) await last.page.close();
    last = await timeToFirstRender(browser, workflowId);
    loads.push({ ms: last.ms, edgesMs: last.edgesMs });
  }
  loads.sort((a, b) => a.ms - b.ms);
  const pan = await panFps(last!.page);
  const shown = { nodes: last!.nodes, edges: last!.edges };
  await last!.page.close();
  const median = loads[Math.floor(loads.length / 2)]!;
  return { loadMs: median.ms, edgesMs: median.edgesMs, ...pan, ...shown };
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/renderer/index.html'))) throw new Error('build the renderer first: npx vite build --config renderer/vite.config.ts');
  const dataDir = mkdtempSync(join(tmpdir(), 'yukta-bench-ui-'));
  const server = await startServer(PORT, dataDir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    await save({ workflowId: 'bench-empty', nodes: [], edges: [] });
    await save(bigWorkflow());
    await timeToFirstRender(browser, 'bench-empty').then((r) => r.page.close()); // warm-up (caches, JIT)
    const empty = await measureCase(browser, 'bench-empty');
    const big = await measureCase(browser, 'bench-500');
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.log(
      `\n### ui-canvas: Chromium ${browser.version()}, viewport 1440×900, median of ${LOADS} loads, ${PAN_MS} ms of panning (load average ${load})\n`,
    );
    console.log('| case | first render: nodes visible (ms) | edges drawn (ms) | nodes / edges in DOM | fps while panning | worst frame (ms) |');
    console.log('| - | - | - | - | - | - |');
    for (const [label, r] of [
      ['empty canvas', empty],
      ['500 nodes / 2000 edges', big],
    ] as const) {
      console.log(
        `| ${label} | ${r.loadMs.toFixed(0)} | ${r.edgesMs ? r.edgesMs.toFixed(0) : '–'} | ${r.nodes} / ${r.edges} | ${r.fps.toFixed(1)} | ${r.worstFrameMs.toFixed(1)} |`,
      );
    }
    console.log(`| ratio (500 / empty) | ${(big.loadMs / empty.loadMs).toFixed(2)}× | | | ${(big.fps / empty.fps).toFixed(2)}× | |`);
    console.log(`\nTargets: load < 1500 ms → ${big.loadMs < 1500 ? 'met' : 'MISSED'}; ≥ 50 fps while panning → ${big.fps >= 50 ? 'met' : 'MISSED'}`);
  } finally {
    await browser.close();
    stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
