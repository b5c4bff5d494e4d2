// bench/ui-live: live run updates on the studio canvas in Chromium (Playwright) against a `yukta serve` on a
// private port. The 500-node workflow of bench/ui-canvas is shown as a run; the page's event stream
// (EventSource, replaced in the page by a fake the bench feeds) then delivers NODE_STATUS events at
// 1,000 per second for 10 s, in batches like the host's (one per 16 ms), through the studio's real path:
// SSE listener → JSON.parse + schema check → frame coalescer → live store → canvas nodes. Against the same
// run view with no events, in the same page: frames per second (a requestAnimationFrame counter), the
// longest frame, and node re-renders (the render probe, renderer/features/editor/render-probe.ts) next to
// the node changes the live store made (`__yuktaLive`, exposed with the probe). Targets (issue 7): ≥ 50 fps;
// re-renders only for nodes whose state changed. 100 of the 500 nodes get no event at all, and one event in
// ten repeats what its node already showed (no change): neither may re-render a node.
// Needs the built renderer (npm run build:renderer) and /usr/bin/chromium.
// Run: npx tsx bench/ui-live.ts [--port 4348] [--seconds 10] [--rate 1000] [--zoom-in [--zoom-steps 12]] [--profile] [--reduced-motion]
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { argNumber } from './lib';
import { CHROMIUM_ARGS, ROOT, startServer, stopServer } from './serve-process';
import { bigWorkflow } from './ui-canvas-workflow';

const PORT = argNumber('port', 4348);
const SECONDS = argNumber('seconds', 10);
const RATE = argNumber('rate', 1000);
const ZOOM_IN = process.argv.includes('--zoom-in');
/** Wheel steps of --zoom-in (12: a handful of nodes on screen; 4: just past the compact threshold, ~100). */
const ZOOM_STEPS = argNumber('zoom-steps', 12);
const PROFILE = process.argv.includes('--profile');
const REDUCED_MOTION = process.argv.includes('--reduced-motion');
const BASE = `http://127.0.0.1:${PORT}`;
const WORKFLOW_ID = 'bench-live';
const RUN_ID = 'bench-live-run';
/** Nodes that receive no event (the last 100 of the 500): they must not re-render. */
const QUIET_NODES = 100;

async function save(definition: unknown): Promise<{ version: string }> {
  const response = await fetch(`${BASE}/api/workflows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ session: 'default', definition }),
  });
  if (!response.ok) throw new Error(`save refused: ${await response.text()}`);
  return (await response.json()) as { version: string };
}

// Page scripts are strings: tsx wraps named functions with a `__name` helper that does not exist in the page.
/**
 * Before the studio loads: the render probe (counts renders per node id), and a fake EventSource that
 * keeps the studio's subscriptions in `__benchSources` so the bench can feed them `batch` messages.
 */
const PAGE_SETUP = `(() => {
  // A node re-render is counted once per frame, however many of its components rendered (the node and its
  // figures line both render when its status changes), as a React Profiler counts one commit.
  window.__renders = Object.create(null);
  window.__renderTotal = 0;
  window.__componentRenders = 0;
  let frame = 0, seen = new Set();
  const tickFrame = () => { frame++; seen = new Set(); requestAnimationFrame(tickFrame); };
  requestAnimationFrame(tickFrame);
  window.__yuktaRenderProbe = (id) => {
    window.__componentRenders++;
    if (seen.has(id)) return;
    seen.add(id);
    window.__renders[id] = (window.__renders[id] || 0) + 1;
    window.__renderTotal++;
  };
  window.__benchSources = [];
  class BenchEventSource {
    constructor(url) { this.url = url; this.listeners = Object.create(null); window.__benchSources.push(this); }
    addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
    removeEventListener() {}
    close() { this.closed = true; }
    deliver(data) { for (const fn of this.listeners.batch || []) fn({ data }); }
  }
  window.EventSource = BenchEventSource;
})()`;

/**
 * Counts the live store's node changes (entries whose identity changed, per update) and frames, for
 * `ms`; with `rate` > 0 also feeds NODE_STATUS events at that rate, one batch per 16 ms tick, from
 * event texts made before the clock starts (the server makes them in the real app).
 */
const PHASE = `async ({ ms, rate, runId, nodeIds, quiet }) => {
  const live = window.__yuktaLive;
  const changes = Object.create(null);
  let changed = 0, updates = 0, statusChanged = 0, burstDone = null;
  const busy = nodeIds.length - quiet;
  const unsubscribe = live.subscribe((s, prev) => {
    if (s.nodes === prev.nodes) return;
    updates++;
    for (const id in s.nodes) {
      const a = s.nodes[id], b = prev.nodes[id];
      if (a === b) continue;
      changes[id] = (changes[id] || 0) + 1;
      changed++;
      if (!b || a.status !== b.status || Boolean(a.held) !== Boolean(b.held)) statusChanged++;
    }
    if (burstDone === null && statusChanged >= busy) burstDone = performance.now();
  });
  window.__renders = Object.create(null);
  window.__renderTotal = 0;
  window.__componentRenders = 0;
  // Event texts: node i % busy, counts growing per node; one in ten repeats the node's last event (no change).
  // The first event of each busy node moves it PENDING → RUNNING, the last \`busy\` events end them SUCCESS.
  const total = Math.round((rate * ms) / 1000);
  const texts = [];
  const received = new Array(busy).fill(0);
  let seq = 1e6, repeats = 0;
  let last = new Array(busy).fill(null);
  for (let i = 0; i < total; i++) {
    const n = (i * 7) % busy;
    if (i % 10 === 9 && last[n]) { texts.push(last[n]); repeats++; continue; }
    received[n]++;
    const status = i >= total - busy ? 'SUCCESS' : 'RUNNING';
    const text = JSON.stringify({ type: 'NODE_STATUS', seq: seq++, executionId: runId, at: Date.now(), nodeId: nodeIds[n], status, counts: { received: received[n], emitted: received[n] - 1 }, buffer: { used: received[n] % 8, size: 8 } });
    last[n] = text;
    texts.push(text);
  }
  const source = window.__benchSources.find((s) => !s.closed);
  const frames = [];
  let counting = true;
  const loop = (t) => { if (!counting) return; frames.push(t); requestAnimationFrame(loop); };
  await new Promise((r) => requestAnimationFrame(() => r()));
  requestAnimationFrame(loop);
  const began = performance.now();
  let sent = 0, batches = 0;
  await new Promise((done) => {
    const tick = () => {
      const elapsed = performance.now() - began;
      if (rate > 0) {
        const due = Math.min(total, Math.floor((rate * elapsed) / 1000));
        if (due > sent) { source.deliver('[' + texts.slice(sent, due).join(',') + ']'); sent = due; batches++; }
      }
      if (elapsed >= ms) { clearInterval(timer); done(); }
    };
    const timer = setInterval(tick, 16);
  });
  if (rate > 0 && sent < total) { source.deliver('[' + texts.slice(sent).join(',') + ']'); sent = total; batches++; }
  // Two more frames: the last batch is applied on the next one.
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r())));
  counting = false;
  unsubscribe();
  const measured = frames.filter((t) => t - frames[0] <= ms);
  let worst = 0, long = 0;
  for (let i = 1; i < measured.length; i++) { const d = measured[i] - measured[i - 1]; worst = Math.max(worst, d); if (d > 50) long++; }
  const fps = (measured.length - 1) / ((measured[measured.length - 1] - measured[0]) / 1000);
  // Steady state: from the frame that applied the last PENDING → RUNNING until the SUCCESS events begin
  // (only counts and buffers change then).
  const steadyEnd = began + ((total - busy) / rate) * 1000;
  const steady = rate > 0 && burstDone !== null ? measured.filter((t) => t >= burstDone && t <= steadyEnd) : [];
  const steadyFps = steady.length > 1 ? (steady.length - 1) / ((steady[steady.length - 1] - steady[0]) / 1000) : null;
  const steadySeconds = steady.length > 1 ? (steady[steady.length - 1] - steady[0]) / 1000 : 0;
  const renders = window.__renders;
  let overRendered = 0, renderedUnchanged = 0, quietRendered = 0;
  for (const id in renders) {
    if ((changes[id] || 0) === 0) renderedUnchanged += renders[id];
    else if (renders[id] > changes[id]) overRendered += renders[id] - changes[id];
  }
  for (const id of nodeIds.slice(busy)) quietRendered += renders[id] || 0;
  const slow = [];
  for (let i = 1; i < measured.length; i++) if (measured[i] - measured[i - 1] > 100) slow.push(Math.round(measured[i - 1] - began) + '+' + Math.round(measured[i] - measured[i - 1]));
  return { steadyFps, steadySeconds, slow: slow.join(' '), fps, worst, long, frames: measured.length, sent, batches, repeats, updates, changed, statusChanged, renders: window.__renderTotal, overRendered, renderedUnchanged, quietRendered, componentRenders: window.__componentRenders, nodesChanged: Object.keys(changes).length, nodesRendered: Object.keys(renders).length };
}`;

interface MainThreadCost {
  script: number;
  style: number;
  layout: number;
  task: number;
}

/** Seconds the page's main thread spent so far, by kind (CDP Performance.getMetrics). */
async function mainThread(cdp: CDPSession): Promise<MainThreadCost> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  const get = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
  return { script: get('ScriptDuration'), style: get('RecalcStyleDuration'), layout: get('LayoutDuration'), task: get('TaskDuration') };
}

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** --profile: the 25 functions with the most self time while events arrive. */
function printProfile(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  console.log('\nSelf time while events arrive (ms):');
  for (const [key, msSelf] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${msSelf.toFixed(0).padStart(7)}  ${key}`);
}

type PhaseResult = {
  steadyFps: number | null;
  steadySeconds: number;
  componentRenders: number;
  slow: string;
  fps: number;
  worst: number;
  long: number;
  frames: number;
  sent: number;
  batches: number;
  repeats: number;
  updates: number;
  changed: number;
  statusChanged: number;
  renders: number;
  overRendered: number;
  renderedUnchanged: number;
  quietRendered: number;
  nodesChanged: number;
  nodesRendered: number;
};

/** The run the page shows: every node PENDING, the run RUNNING (the REST answers are the bench's). */
async function fakeRun(page: Page, version: string, nodeIds: string[]): Promise<void> {
  const at = Date.now();
  const summary = {
    executionId: RUN_ID,
    session: 'default',
    workflowId: WORKFLOW_ID,
    definitionVersion: version,
    status: 'RUNNING',
    createdAt: at,
    startedAt: at,
  };
  const detail = {
    ...summary,
    nodes: nodeIds.map((nodeId) => ({ nodeId, status: 'PENDING', counts: { received: 0, emitted: 0 } })),
    results: [],
    resultsTruncated: false,
  };
  const control = { executionId: RUN_ID, live: true, paused: false, stepMode: false, nodes: [] };
  const json = (body: unknown) => ({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  await page.route(
    (url) => url.pathname === '/api/executions',
    (route) => route.fulfill(json([summary])),
  );
  await page.route(
    (url) => url.pathname === `/api/executions/${RUN_ID}`,
    (route) => route.fulfill(json(detail)),
  );
  await page.route(
    (url) => url.pathname === `/api/executions/${RUN_ID}/control`,
    (route) => route.fulfill(json(control)),
  );
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/renderer/index.html'))) throw new Error('build the renderer first: npm run build:renderer');
  const dataDir = mkdtempSync(join(tmpdir(), 'yukta-bench-live-'));
  const server = await startServer(PORT, dataDir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const workflow = bigWorkflow(WORKFLOW_ID);
    const nodeIds = (workflow.nodes as Array<{ nodeId: string }>).map((n) => n.nodeId);
    const { version } = await save(workflow);
    const page = await openRunView(browser, version, nodeIds);
    const phases = await measurePhases(page, nodeIds);
    const shownNodes = await page.locator('.react-flow__node').count();
    const detail = await page.locator('.studio-node:not(.compact)').count();
    await page.close();
    const load = loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
    console.log(
      `\n### ui-live: Chromium ${browser.version()}, viewport 1440×900, ${nodeIds.length} nodes (${shownNodes} in the DOM, ${detail} drawn with details${ZOOM_IN ? ', zoomed in' : ', fit view'}), ${RATE} NODE_STATUS events/s for ${SECONDS} s (load average ${load})\n`,
    );
    printReport(phases);
  } finally {
    await browser.close();
    stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A page showing the big workflow's (fake) run with every node's state known, zoomed in with --zoom-in. */
async function openRunView(browser: Browser, version: string, nodeIds: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  if (REDUCED_MOTION) await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.addInitScript(PAGE_SETUP);
  await fakeRun(page, version, nodeIds);
  await page.goto(`${BASE}/#/w/default/${WORKFLOW_ID}`);
  await page.locator('.react-flow__node').first().waitFor({ state: 'visible', timeout: 60_000 });
  await page.getByTestId('runs-tab').click();
  await page.getByTestId(`run-row-${RUN_ID}`).click();
  await page.getByTestId('run-banner').waitFor({ timeout: 30_000 });
  await page.waitForFunction(
    (n) => Object.keys((window as unknown as { __yuktaLive: { getState(): { nodes: object } } }).__yuktaLive.getState().nodes).length === n,
    nodeIds.length,
    { timeout: 30_000 },
  );
  if (ZOOM_IN) {
    // Close enough to draw each node's details (counts, buffer), as a user watching part of the run would.
    const canvas = (await page.getByTestId('canvas').boundingBox())!;
    await page.mouse.move(canvas.x + 120, canvas.y + 120);
    for (let i = 0; i < ZOOM_STEPS; i++) await page.mouse.wheel(0, -200);
  }
  await page.waitForTimeout(1000); // let the fit, measurements and the run snapshot settle
  return page;
}

type Measured = PhaseResult & { cost: MainThreadCost };

/** Three phases in one page: no events, RATE events/s (profiled with --profile), no events again. */
async function measurePhases(page: Page, nodeIds: string[]): Promise<{ idle: Measured; events: Measured; idleAgain: Measured }> {
  const ms = SECONDS * 1000;
  const args = { ms, runId: RUN_ID, nodeIds, quiet: QUIET_NODES };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const phase = async (rate: number, phaseMs = ms): Promise<Measured> => {
    const before = await mainThread(cdp);
    if (PROFILE && rate > 0) await cdp.send('Profiler.enable').then(() => cdp.send('Profiler.start'));
    const result = (await page.evaluate(`(${PHASE})(${JSON.stringify({ ...args, ms: phaseMs, rate })})`)) as PhaseResult;
    if (PROFILE && rate > 0) printProfile(((await cdp.send('Profiler.stop')) as { profile: CpuProfile }).profile);
    const after = await mainThread(cdp);
    const perSecond = (k: keyof MainThreadCost) => ((after[k] - before[k]) * 1000) / (phaseMs / 1000);
    const cost: MainThreadCost = { script: perSecond('script'), style: perSecond('style'), layout: perSecond('layout'), task: perSecond('task') };
    return { ...result, cost };
  };
  const idle = await phase(0);
  const events = await phase(RATE);
  const idleAgain = await phase(0, Math.min(ms, 3000));
  return { idle, events, idleAgain };
}

function printReport({ idle, events, idleAgain }: { idle: Measured; events: Measured; idleAgain: Measured }): void {
  console.log(
    '| case | fps | worst frame (ms) | frames > 50 ms | events delivered (batches) | live-store updates | node changes (of which status/held) | node re-renders | re-renders beyond changes | re-renders of unchanged nodes |',
  );
  console.log('| - | - | - | - | - | - | - | - | - | - |');
  const cases = [
    ['no events (same run view)', idle],
    [`${RATE} events/s`, events],
    ['no events, after', idleAgain],
  ] as const;
  for (const [label, r] of cases) {
    console.log(
      `| ${label} | ${r.fps.toFixed(1)} | ${r.worst.toFixed(1)} | ${r.long} | ${r.sent} (${r.batches}) | ${r.updates} | ${r.changed} (${r.statusChanged}) | ${r.renders} | ${r.overRendered} | ${r.renderedUnchanged} |`,
    );
  }
  console.log(`| ratio (events / no events) | ${(events.fps / idle.fps).toFixed(2)}× | | | | | | | | |`);
  console.log('\nMain thread, ms per second of the phase (Chrome Performance metrics):\n');
  console.log('| case | script | style | layout | all tasks |');
  console.log('| - | - | - | - | - |');
  for (const [label, r] of cases)
    console.log(`| ${label} | ${r.cost.script.toFixed(0)} | ${r.cost.style.toFixed(0)} | ${r.cost.layout.toFixed(0)} | ${r.cost.task.toFixed(0)} |`);
  console.log(
    `\nEvents: ${events.sent}, of which ${events.repeats} repeat a node's last state; ${events.nodesChanged} nodes changed, ${events.nodesRendered} re-rendered; the ${QUIET_NODES} nodes with no event re-rendered ${events.quietRendered} time(s).`,
  );
  console.log(
    `Steady state (only counts and buffers change: from the frame that applied the last PENDING → RUNNING to the first SUCCESS event, ${events.steadySeconds.toFixed(1)} s): ${events.steadyFps === null ? 'n/a' : events.steadyFps.toFixed(1)} fps.`,
  );
  console.log(`Frames over 100 ms while events arrive (ms from the start + duration): ${events.slow || 'none'}.`);
  console.log(`Node components rendered (the node and its figures line counted apart): ${events.componentRenders}.`);
  console.log(
    `Re-renders per node change: ${(events.renders / Math.max(1, events.changed)).toFixed(3)} (${events.renders} / ${events.changed}); re-renders per event: ${(events.renders / Math.max(1, events.sent)).toFixed(3)}.`,
  );
  const exact = events.overRendered === 0 && events.renderedUnchanged === 0 && events.quietRendered === 0;
  console.log(
    `Targets: ≥ 50 fps with events → ${events.fps >= 50 ? 'met' : 'MISSED'}; re-renders only for nodes whose state changed → ${exact ? 'met' : 'MISSED'}`,
  );
}

await main();
