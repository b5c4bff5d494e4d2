/**
 * The code of a script worker thread (SEC-03), run with `new Worker(source, {eval: true})` so it needs no
 * file of its own in the bundles. It loads QuickJS (WASM) once, then evaluates each job in a fresh QuickJS
 * runtime with a memory limit, a stack limit and an interrupt deadline. Only JSON text crosses into and out
 * of the sandbox: the script sees `payload`, `metadata` and `log`, nothing of Node or the host.
 */
export const SCRIPT_WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const q = require(workerData.quickjsPath);

const PRELUDE = [
  '"use strict";',
  // Taken before the script runs: a script that replaces JSON.stringify cannot corrupt the reply.
  'const __stringify = JSON.stringify;',
  'const __logs = [];',
  'const log = (...a) => { if (__logs.length < 200) __logs.push(a.map((x) => typeof x === "string" ? x : __stringify(x)).join(" ").slice(0, 2000)); };',
].join('\n');

function program(code, input) {
  return PRELUDE + '\n' +
    'const __input = JSON.parse(' + JSON.stringify(input) + ');\n' +
    'const __fn = new Function("payload", "metadata", "log", ' + JSON.stringify(code) + ');\n' +
    'const __out = __fn(__input.payload, __input.metadata, log);\n' +
    '__stringify({ u: __out === undefined, r: __out === undefined ? null : __out, l: __logs });';
}

function classify(error, interrupted) {
  const name = error && typeof error === 'object' ? String(error.name || 'Error') : 'Error';
  const message = error && typeof error === 'object' ? String(error.message || '') : String(error);
  if (interrupted || message === 'interrupted') return { kind: 'timeout', name, message };
  if (/out of memory/i.test(message)) return { kind: 'memory', name, message };
  return { kind: 'error', name, message: message.slice(0, 2000) };
}

q.getQuickJS().then((QuickJS) => {
  parentPort.postMessage({ ready: true });
  parentPort.on('message', (job) => {
    const runtime = QuickJS.newRuntime();
    runtime.setMemoryLimit(job.memoryBytes);
    runtime.setMaxStackSize(job.stackBytes);
    const deadline = Date.now() + job.timeoutMs;
    let interrupted = false;
    runtime.setInterruptHandler(() => (interrupted = Date.now() > deadline));
    const vm = runtime.newContext();
    let reply;
    try {
      const result = vm.evalCode(program(job.code, JSON.stringify({ payload: job.payload, metadata: job.metadata })), 'script.js');
      if (result.error) {
        reply = { id: job.id, error: classify(vm.dump(result.error), interrupted) };
        result.error.dispose();
      } else {
        const text = vm.getString(result.value);
        result.value.dispose();
        reply = text.length > job.maxOutputBytes ? { id: job.id, error: { kind: 'size', name: 'RangeError', message: 'output too large' } } : { id: job.id, text };
      }
    } catch (error) {
      // A host-level failure inside the WASM call (deep recursion overflowing the thread's stack): the
      // QuickJS runtime may be inconsistent, so this worker is replaced after answering.
      const overflow = error instanceof RangeError;
      reply = { id: job.id, error: overflow ? { kind: 'error', name: 'InternalError', message: 'stack overflow' } : classify(error, interrupted), recycle: true };
    }
    try {
      vm.dispose();
      runtime.dispose();
    } catch (error) {
      // a runtime that ran out of memory may fail to free cleanly; the worker is replaced below
      reply.recycle = true;
    }
    parentPort.postMessage(reply);
  });
});
`;
