import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './cli';
import { terminalSafe, type CliIo } from './cli-io';

/** Every character a terminal acts on, as the brief lists them, with the escape the CLI prints. */
const UNSAFE: Array<[string, string]> = [
  ['\u0000', '\\x00'],
  ['\u0007', '\\x07'],
  ['\u0008', '\\x08'],
  ['\u000b', '\\x0b'],
  ['\u000d', '\\x0d'],
  ['\u001b', '\\x1b'],
  ['\u001f', '\\x1f'],
  ['\u007f', '\\x7f'],
  ['\u0080', '\\x80'],
  ['\u009b', '\\x9b'],
  ['\u009f', '\\x9f'],
  ['\u202a', '\\u202a'],
  ['\u202b', '\\u202b'],
  ['\u202c', '\\u202c'],
  ['\u202d', '\\u202d'],
  ['\u202e', '\\u202e'],
  ['\u2066', '\\u2066'],
  ['\u2067', '\\u2067'],
  ['\u2068', '\\u2068'],
  ['\u2069', '\\u2069'],
  ['\u200e', '\\u200e'],
  ['\u200f', '\\u200f'],
  ['\u061c', '\\u061c'],
];

function collectingIo(): CliIo & { text(): string } {
  const lines: string[] = [];
  return { out: (l) => lines.push(l), err: (l) => lines.push(l), text: () => lines.join('\n') };
}

/** True when `text` holds any character of the list (a raw one reached the terminal). */
const hasRaw = (text: string): boolean => UNSAFE.some(([c]) => text.includes(c));

describe('SEC-03 terminal safety: the CLI escapes control and BIDI characters in everything it echoes', () => {
  it('escapes C0 (but tab and newline), DEL, C1 and the BIDI controls; leaves other text alone', () => {
    for (const [raw, escaped] of UNSAFE) expect(terminalSafe(`a${raw}b`)).toBe(`a${escaped}b`);
    expect(terminalSafe('tab\tand\nnewline stay; é, 日本, 😀 and \u200b stay')).toBe('tab\tand\nnewline stay; é, 日本, 😀 and \u200b stay');
    expect(terminalSafe('\u001b[31mred\u001b[0m')).toBe('\\x1b[31mred\\x1b[0m');
  });

  it('yukta validate prints node ids, types and paths with ESC, OSC and BIDI sequences escaped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'yukta-esc-'));
    const file = join(dir, 'evil\u001b[2J.json');
    const definition = {
      workflowId: 'esc',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'a\u001b[31mred\u202e', type: 'NOPE\u001b]0;title\u0007' },
      ],
      edges: [{ source: 't', target: 'x\u009b2J' }],
    };
    writeFileSync(file, JSON.stringify(definition));
    const io = collectingIo();
    expect(await runCli(['validate', file], io)).toBe(1);
    expect(hasRaw(io.text())).toBe(false);
    expect(io.text()).toContain('a\\x1b[31mred\\u202e');
    // A missing file echoes its path: escaped too.
    const missing = collectingIo();
    expect(await runCli(['validate', join(dir, 'gone\u001b[2J.json')], missing)).toBe(2);
    expect(missing.text()).toContain('gone\\x1b[2J.json');
    expect(hasRaw(missing.text())).toBe(false);
  });

  it('yukta run escapes what a run echoes (log lines, results) and an unknown command name', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'yukta-esc-'));
    const file = join(dir, 'echo.json');
    const definition = {
      workflowId: 'echo',
      nodes: [
        { nodeId: 'start', type: 'API_TRIGGER' },
        { nodeId: 'print', type: 'CONSOLE_TERMINAL', config: { format: 'json' } },
      ],
      edges: [{ source: 'start', target: 'print' }],
    };
    writeFileSync(file, JSON.stringify(definition));
    const io = collectingIo();
    expect(await runCli(['run', file, '--payload', JSON.stringify({ text: '\u001b[31mred\u001b[0m\u202eevil' })], io)).toBe(0);
    expect(io.text()).toContain('\\u001b[31mred'); // the result is JSON text: JSON already escapes C0
    expect(hasRaw(io.text())).toBe(false);
    const unknown = collectingIo();
    expect(await runCli(['\u001b[31mnope'], unknown)).toBe(2);
    expect(unknown.text()).toContain('unknown command "\\x1b[31mnope"');
  });
});

describe('SEC-03 CLI input limits: --payload and workflow files', () => {
  it('refuses a --payload nesting deeper than yukta.execution.max-depth (128), naming the flag and the path', async () => {
    const io = collectingIo();
    const deep = `{"x":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(await runCli(['run', 'unused.json', '--payload', deep], io)).toBe(2);
    expect(io.text()).toBe('--payload: x.0.0.0.0.0… nests deeper than 128 levels (yukta.execution.max-depth)');
  });

  it('refuses __proto__ keys in a workflow file, naming the file and the path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'yukta-proto-'));
    const file = join(dir, 'proto.json');
    writeFileSync(file, '{"workflowId":"p","nodes":[{"nodeId":"t","type":"API_TRIGGER","config":{"__proto__":{"polluted":true}}}]}');
    const io = collectingIo();
    expect(await runCli(['validate', file], io)).toBe(2);
    expect(io.text()).toBe(`${file}: key __proto__ is not allowed at nodes.0.config`);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
