import { afterAll, describe, expect, it } from 'vitest';
import { evaluateCondition } from '../plugins/expressions/condition';
import { renderTemplate } from '../plugins/expressions/template';
import { chain, harness, recorder } from '../test-support/engine-harness';
import { ScriptSandbox } from './script-sandbox';
import { AllowListVariables } from './variables';

/** Host state an escape could reach; none of it may show up in any outcome. */
const HOST_MARKER = 'host-marker-5b2c';
process.env.YUKTA_INJECTION_MARKER = HOST_MARKER;
(globalThis as Record<string, unknown>).__yuktaHostMarker = HOST_MARKER;

function prototypeSnapshot(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype, Number.prototype, Promise.prototype, JSON]
    .map((p) => Reflect.ownKeys(p).map(String).sort().join(','))
    .join('|');
}
const BEFORE = prototypeSnapshot();

const scope = {
  payload: { name: 'Ada', list: [1, 2], nested: { a: 1 } },
  metadata: { source: 'api' },
  context: { executionId: 'e1' },
  variables: new AllowListVariables({ env: { YUKTA_VAR_X: 'x', SECRET_TOKEN: HOST_MARKER } }),
};

/** Template payloads: each is refused (BadInputError) or renders plain text without reaching anything of the host. */
const TEMPLATES = [
  '${constructor.constructor("return process")()}',
  '${payload.constructor.constructor}',
  '${payload.__proto__}',
  '${payload.__proto__.polluted}',
  '${payload.prototype}',
  '${payload.name.constructor}',
  '${payload.toString}',
  '${payload.valueOf:json}',
  '${payload.list.map}',
  '${process.env.YUKTA_INJECTION_MARKER}',
  '${globalThis.__yuktaHostMarker}',
  '${require("fs")}',
  '${this}',
  '${env.__proto__}',
  '${env.SECRET_TOKEN}',
  '${env.YUKTA_INJECTION_MARKER}',
  '${sys.constructor}',
  '${metadata.__proto__.toString}',
  '${context.constructor.name}',
  '${payload["__proto__"]}',
  '${payload.name:json}',
  '${payload.constructor.prototype.polluted}',
  '${payload.__defineGetter__}',
  '${payload.hasOwnProperty}',
  '${payload.list.constructor.constructor}',
  '${payload.list.__proto__.push}',
  '${globalThis.process.mainModule.require("child_process")}',
  '${process.mainModule}',
  '${import("fs")}',
  "${payload['constructor']}",
  '${payload.nested.__proto__.__proto__}',
  '${sys.process}',
  '${env.PATH}',
  '${payload.list.0.constructor}',
  '${Symbol.iterator}',
  // Size bombs: a long template renders plain text; a very deep path is refused or empty.
  '${payload.name}'.repeat(20_000),
  `\${${'payload.'.repeat(5_000)}name}`,
  `\${payload${'.__proto__'.repeat(1_000)}}`,
];

/** CEL payloads: refused at compile or evaluation, or a plain boolean — never a host value. */
const CONDITIONS = [
  'payload.constructor',
  'payload.__proto__ == null',
  'has(payload.__proto__)',
  'payload["constructor"]["constructor"]("return process")()',
  'process.env.HOME == ""',
  'globalThis.__yuktaHostMarker == "x"',
  'require("fs") == null',
  'this == null',
  'payload.name.constructor == null',
  'dyn(payload).toString == null',
  'payload.list.map(x, x * 2).size() == 2',
  'size(payload.name) > 0 && payload.__proto__.polluted == true',
  'dyn(payload)["__proto__"] != null',
  '"constructor" in payload && payload.constructor != null',
  'payload.toString() == ""',
  'string(payload) == "x"',
  'payload.list.exists(x, x == globalThis)',
  'payload.nested.__proto__.a == 1',
  'metadata.constructor.name == "Object"',
  'payload.list.map(x, payload.list.map(y, payload.list.map(z, x * y * z))).size() > 100',
  // Size bombs: deep nesting and very long expressions are refused (or evaluate) within the limit, no stack overflow.
  `${'('.repeat(20_000)}true${')'.repeat(20_000)} == false`,
  `${'!'.repeat(50_000)}true`,
  `${Array.from({ length: 20_000 }, () => '1').join(' + ')} == 0`,
  `${'['.repeat(10_000)}${']'.repeat(10_000)}.size() > 5`,
  'payload.name.matches("^(a+)+$") && payload.name.matches("(x+x+)+y")',
];

/** Script payloads with the outcome each must end in. */
const SCRIPTS: Array<[string, 'value' | 'error' | 'timeout' | 'memory']> = [
  ['return this.constructor.constructor("return typeof process")();', 'value'],
  ['return (function(){ return this })() === undefined ? "strict" : typeof this.process;', 'value'],
  ['return typeof globalThis.process + typeof globalThis.require + typeof globalThis.module;', 'value'],
  ['return typeof require;', 'value'],
  ['return require("fs").readFileSync("/etc/passwd", "utf8");', 'error'],
  ['return process.env.YUKTA_INJECTION_MARKER;', 'error'],
  ['return globalThis.__yuktaHostMarker === undefined;', 'value'],
  ['return Function("return this")().process === undefined;', 'value'],
  ['return eval("typeof process");', 'value'],
  ['Object.prototype.polluted = true; return ({}).polluted;', 'value'],
  ['Array.prototype.push = null; return 1;', 'value'],
  ['payload.__proto__.polluted = 1; return payload;', 'value'],
  ['const p = JSON.parse(\'{"__proto__": {"polluted": true}}\'); return p;', 'value'],
  ['return Object.getOwnPropertyNames(globalThis).filter((k) => /process|require|fetch|setTimeout|XMLHttpRequest|Worker|Deno|Bun/.test(k));', 'value'],
  ['return typeof fetch + typeof setTimeout + typeof XMLHttpRequest + typeof WebAssembly;', 'value'],
  ['return import("os");', 'value'],
  ['new Worker("x.js");', 'error'],
  ['return std.getenv("HOME");', 'error'],
  ['return os.exec(["/bin/sh"]);', 'error'],
  ['throw new Error("boom")', 'error'],
  ['}); process.exit(1); (function(){', 'error'],
  ['return new Proxy({}, { get: () => { throw new Error("trap"); } });', 'error'],
  ['const o = {}; o.self = o; return o;', 'error'],
  ['return { get x() { return globalThis.process.env; } };', 'error'],
  ['return 10n;', 'error'],
  ['Error.prepareStackTrace = (e, s) => s[0].getThis(); return new Error().stack;', 'value'],
  ['while (true) {}', 'timeout'],
  ['for (;;) { Math.random(); }', 'timeout'],
  ['let i = 0; while (i >= 0) { i++; }', 'timeout'],
  ['function f() { return f(); } return f();', 'error'],
  ['const a = []; while (true) a.push(new Array(100000).fill(7));', 'memory'],
  ['let s = "x"; while (true) s = s + s;', 'error'],
  ['return new ArrayBuffer(1024 * 1024 * 1024).byteLength;', 'memory'],
  ['const m = new Map(); for (let i = 0; ; i++) m.set(i, { i, s: "x".repeat(100) });', 'memory'],
  ['return "x".repeat(2 ** 28).length;', 'memory'],
  ['return JSON.parse("[".repeat(100000) + "]".repeat(100000));', 'error'],
  ['const r = /(a+)+$/; return r.test("a".repeat(40) + "b");', 'timeout'],
  ['return Reflect.ownKeys(globalThis).filter((k) => typeof k === "string" && /process|require|module|Buffer/.test(k));', 'value'],
  ['return Object.getPrototypeOf(async function () {}).constructor("return typeof process")().constructor.name;', 'value'],
  ['return [].constructor.constructor("return globalThis")().process === undefined;', 'value'],
  ['return globalThis.constructor.constructor("return this")() === globalThis;', 'value'],
  ['Object.defineProperty(Object.prototype, "hijack", { get() { return 1; } }); return ({}).hijack;', 'value'],
  ['String.prototype.toString = () => "pwned"; JSON.stringify = () => "pwned"; return "ok";', 'value'],
  ['Object.prototype.toJSON = function () { return undefined; }; return 1;', 'error'],
  ['Object.prototype.toJSON = function () { return "not the reply"; }; return 1;', 'error'],
  ['return ({}).__proto__.__proto__ === null;', 'value'],
  ['return typeof Atomics + typeof SharedArrayBuffer + typeof globalThis.gc;', 'value'],
  // No job queue is run in the sandbox: async work is never started, so this returns at once.
  ['(async () => { await 0; for (;;) {} })(); return 1;', 'value'],
  ['label: for (;;) { try { continue label; } finally { Math.abs(1); } }', 'timeout'],
  ['do { } while (1);', 'timeout'],
  ['const a = new Uint8Array(512 * 1024 * 1024); return a.length;', 'memory'],
  ['return new Array(1e9).fill(0).length;', 'memory'],
  // Heap full of small objects: QuickJS cannot even allocate the exception and throws null (SCRIPT_ERROR), still stopped at the limit.
  ['let o = {}; for (;;) o = { o, pad: [1, 2, 3, 4, 5, 6, 7, 8] };', 'error'],
  ['const parts = []; for (let i = 0; ; i++) parts.push("y".repeat(1024) + i);', 'memory'],
];

/** Expressions have no loops: even the size bombs must come back (refused or evaluated) well within this. */
const EXPRESSION_LIMIT_MS = 2_000;
let slowest = 0;

const sandbox = new ScriptSandbox(2);
afterAll(() => sandbox.close());

describe('SEC-02/SEC-03 injection corpus: expressions and scripts', () => {
  it(`has at least 50 expression payloads and 50 script payloads (${TEMPLATES.length + CONDITIONS.length} + ${SCRIPTS.length})`, () => {
    expect(TEMPLATES.length + CONDITIONS.length).toBeGreaterThanOrEqual(50);
    expect(SCRIPTS.length).toBeGreaterThanOrEqual(50);
  });

  it('templates: every payload is refused or renders harmless text', () => {
    const outcomes = TEMPLATES.map((t) => {
      const started = performance.now();
      try {
        const value = renderTemplate(t, scope);
        return typeof value === 'string' || typeof value === 'number' || value === null ? `text:${String(value)}` : `VALUE:${typeof value}`;
      } catch (error) {
        return `refused:${(error as Error).name}`;
      } finally {
        slowest = Math.max(slowest, performance.now() - started);
      }
    });
    expect(slowest).toBeLessThan(EXPRESSION_LIMIT_MS);
    expect(outcomes.filter((o) => o.startsWith('VALUE') || o.includes(HOST_MARKER) || o.includes('function'))).toEqual([]);
    expect(outcomes.every((o) => o === 'text:' || o.startsWith('text:') || o === 'refused:BadInputError')).toBe(true);
  });

  it('conditions (CEL): every payload is refused or a plain boolean', () => {
    const outcomes = CONDITIONS.map((c) => {
      const started = performance.now();
      try {
        return `bool:${String(evaluateCondition(c, { payload: scope.payload, metadata: scope.metadata }, 'r'))}`;
      } catch (error) {
        return `refused:${(error as Error).name}`;
      } finally {
        slowest = Math.max(slowest, performance.now() - started);
      }
    });
    expect(slowest).toBeLessThan(EXPRESSION_LIMIT_MS);
    expect(outcomes.filter((o) => !/^bool:(true|false)$|^refused:BadInputError$/.test(o))).toEqual([]);
    expect(outcomes).not.toContain('bool:true');
  });

  it('scripts: each ends as expected within its limits, none reaches the host', async () => {
    const results = await Promise.all(
      SCRIPTS.map(async ([code, expected]) => {
        const outcome = await sandbox
          .run(
            {
              code,
              payload: { a: 1 },
              metadata: {},
              timeoutMs: expected === 'timeout' ? 300 : 5_000,
              memoryBytes: 8 * 1024 * 1024,
              maxOutputBytes: 1024 * 1024,
            },
            new AbortController().signal,
          )
          .then(
            (o) => ({ kind: 'value', text: JSON.stringify(o.result) }),
            (e: { code?: string; message: string }) => ({
              kind: e.code === 'SCRIPT_TIMEOUT' ? 'timeout' : e.code === 'SCRIPT_MEMORY' ? 'memory' : 'error',
              text: e.message,
            }),
          );
        return { code, expected, ...outcome };
      }),
    );
    // A memory bomb may also end on its time limit when the collector thrashes near the memory limit: stopped either way.
    const stopped = (r: { kind: string; text: string }) =>
      r.kind === 'memory' || r.kind === 'timeout' || (r.kind === 'error' && /memory|too long|allocation/i.test(r.text));
    const wrong = results.filter((r) => r.kind !== r.expected && !(r.expected === 'memory' && stopped(r)));
    expect(wrong.map((r) => `${r.code} → ${r.kind}: ${r.text}`)).toEqual([]);
    const leaked = results.filter((r) => r.text.includes(HOST_MARKER) || /"(object|function)"/.test(r.text.replace(/"undefined"/g, '')));
    expect(leaked.map((r) => `${r.code} → ${r.text}`)).toEqual([]);
    console.log(
      `injection corpus: slowest expression ${slowest.toFixed(1)} ms; ${TEMPLATES.length} templates, ${CONDITIONS.length} conditions, ${SCRIPTS.length} scripts; ${results.filter((r) => r.kind === 'timeout').length} stopped by time, ${results.filter((r) => r.kind === 'memory').length} by memory`,
    );
  });

  it('the host prototypes are unchanged after the whole corpus', () => {
    expect(prototypeSnapshot()).toBe(BEFORE);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(typeof [].push).toBe('function');
  });

  it('SCRIPT node: the result becomes the payload, log() lines reach the live log, returning nothing drops the message', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const code = 'log("saw", payload.n); if (payload.n % 2) return; return { doubled: payload.n * 2, tag: metadata.split ? "split" : "one" };';
    const id = await h.run(
      chain('script', [
        { nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } },
        { nodeId: 'js', type: 'SCRIPT', config: { code } },
      ]),
      { items: [{ n: 1 }, { n: 2 }, { n: 4 }] },
    );
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([
      { doubled: 4, tag: 'one' },
      { doubled: 8, tag: 'one' },
    ]);
    expect(h.events.filter((e) => e.type === 'LOG' && e.nodeId === 'js').map((e) => (e as { text: string }).text)).toEqual(['saw 1', 'saw 2', 'saw 4']);
  });

  it('SCRIPT node: a runaway script fails its node with SCRIPT_TIMEOUT and the engine stays responsive', async () => {
    const h = harness([recorder().plugin]);
    const id = await h.run(chain('spin', [{ nodeId: 'js', type: 'SCRIPT', config: { code: 'for(;;){}', timeoutMs: 200 } }]));
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const status = await h.engine.waitForRun(id);
    clearInterval(ticker);
    expect(status).toBe('FAILURE');
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'js')!.error).toMatchObject({ code: 'SCRIPT_TIMEOUT' });
    expect(ticks).toBeGreaterThan(0); // the event loop kept turning while the script spun in its worker
  });
});
