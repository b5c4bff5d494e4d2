import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, ROOT } from './cli-process';

const FIXTURES = fileURLToPath(new URL('./test-fixtures/', import.meta.url));
const fixture = (name: string): string => join(FIXTURES, name);

describe.concurrent('CLI validate', () => {
  it('prints "valid" and exits 0 for a valid workflow', async () => {
    const r = await cli(['validate', fixture('hello.json')]);
    expect(r).toMatchObject({ code: 0, stdout: 'valid\n' });
  });

  it('prints each issue as "code node path: message" and exits 1 for an invalid workflow', async () => {
    const r = await cli(['validate', fixture('cycle.json')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^DEF-02\/cycle \S+ \S+: .*cycle/m);
    expect(r.stdout).not.toContain('valid\n');
  });

  it('exits 2 naming the file when it is missing or not JSON', async () => {
    const missing = await cli(['validate', fixture('nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.json');
    const broken = await cli(['validate', fixture('not-json.json')]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('not-json.json is not valid JSON');
  });
});

describe.concurrent('CLI run', () => {
  it('runs a workflow, prints progress and SUCCESS, exits 0', async () => {
    const r = await cli(['run', fixture('hello.json'), '--payload', '{"name":"Ada"}', '--session', 'cli']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('[greet] SUCCESS');
    expect(r.stdout).toContain('[out] result: {"name":"Ada","greeting":"Hello Ada"}');
    expect(r.stdout).toMatch(/Final status: SUCCESS\n$/);
  });

  it('exits 1 with the failure when the run fails', async () => {
    const r = await cli(['run', fixture('needs-x.json')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('[start] FAILURE');
    expect(r.stdout).toMatch(/Final status: FAILURE .*missing required field\(s\): x/);
  });

  it('exits 1 printing the issues when the workflow is refused', async () => {
    const r = await cli(['run', fixture('cycle.json')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('VALIDATION_FAILED');
    expect(r.stderr).toMatch(/^DEF-02\/cycle /m);
  });

  it('exits 2 naming --payload when it is not a JSON object', async () => {
    for (const payload of ['{x', '[1]']) {
      const r = await cli(['run', fixture('hello.json'), '--payload', payload]);
      expect(r.code, payload).toBe(2);
      expect(r.stderr).toContain('--payload');
    }
  });
});

describe.concurrent('CLI usage', () => {
  it('prints usage for help and exits 0', async () => {
    const r = await cli(['help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('yukta serve');
  });

  it('prints usage and exits 2 for an unknown command or option', async () => {
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    expect(unknown.stderr).toContain('Usage:');
    const option = await cli(['validate', '--strict-mode', fixture('hello.json')]);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('--strict-mode');
  });
});

describe('DEF-01 CLI serve --store', () => {
  it('refuses an unknown store kind before opening anything', async () => {
    const r = await cli(['serve', '--store', 'oracle', '--port', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--store must be one of sqlite, file, memory, postgres');
  });
});

describe('CLI serve (through bin/yukta.mjs)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'yukta-serve-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints its address, serves the API from the data folder and stops on SIGTERM', async () => {
    // Started from another working directory: paths must not depend on cwd.
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'yukta.mjs'), 'serve', '--port', '0', '--data', dataDir], {
      cwd: tmpdir(),
      env: { ...process.env, YUKTA_CLI_FROM_SOURCE: '1' },
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const lines = createInterface({ input: child.stdout });
    let url: string | undefined;
    const output: string[] = [];
    for await (const line of lines) {
      output.push(line);
      const match = /^Yukta Studio serving at (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (match) url = match[1];
      if (line.startsWith('Data folder: ')) break;
    }
    expect(url, output.join('\n')).toBeDefined();
    expect(output).toContain(`Data folder: ${dataDir}`);

    const saved = await fetch(`${url}/api/workflows`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ definition: { workflowId: 'kept', nodes: [{ nodeId: 's', type: 'API_TRIGGER' }] } }),
    });
    expect(saved.status).toBe(200);
    const list = (await (await fetch(`${url}/api/workflows`)).json()) as Array<{ workflowId: string }>;
    expect(list.map((w) => w.workflowId)).toEqual(['kept']);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
