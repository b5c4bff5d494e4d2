import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDataFolder } from '../host/data-folder-lock';
import { tempDataDir } from '../host/host-test-support';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from '../http/http-server';
import { approveThroughMcp, badInputNamesTheField, expectExposedTools, GREETER, saveStartWaitRead, value, viewerIsRefusedAStart } from './mcp-test-support';
import { z } from 'zod';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KEYS = { viewer: 'viewer-key-0123456789', operator: 'operator-key-0123456789', admin: 'admin-key-0123456789' };
const KEY_SETTINGS = {
  'yukta.api-keys': [
    { name: 'viewer', key: KEYS.viewer, role: 'VIEWER' },
    { name: 'ops', key: KEYS.operator, role: 'OPERATOR' },
    { name: 'admin', key: KEYS.admin, role: 'ADMIN' },
  ],
};
const CLI = ['--import', 'tsx', 'main/cli/index.ts', 'mcp'];

/** This process's environment without the variables that would change what `yukta mcp` does. */
function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, v] of Object.entries(process.env))
    if (v !== undefined && !['YUKTA_URL', 'YUKTA_KEY', 'YUKTA_API_KEY', 'YUKTA_API_KEYS', 'YUKTA_DATA_DIR'].includes(name)) env[name] = v;
  return env;
}

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** `yukta mcp …` as a real child process, with the official SDK client on its stdio. */
async function spawnMcp(args: string[]): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...CLI, ...args], cwd: ROOT, env: childEnv(), stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'ext-04-stdio-test', version: '1.0.0' });
  cleanup.push(() => client.close());
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** Runs `yukta <args>` to its end (for the refusals, which exit before speaking MCP). */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'main/cli/index.ts', ...args], { cwd: ROOT, env: childEnv() });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A real listening serve-mode server with API keys, for the bridge. */
async function keyedServer(): Promise<string> {
  const host = new StudioHost({ settings: parseHostSettings(KEY_SETTINGS), env: {} });
  const server: StudioHttpServer = await createHttpServer({ host, bind: { port: 0 } });
  const { url } = await server.listen();
  cleanup.push(async () => {
    await server.close();
    await host.close();
  });
  return url;
}

describe('EXT-04 yukta mcp over stdio, opening the data folder itself (real child process, SDK client)', () => {
  it('lists the exposed tools, saves, starts, waits, reads resources, approves a WAIT_FOR_SIGNAL run and names bad fields', async () => {
    const data = await tempDataDir();
    const { client, stderr } = await spawnMcp(['--data', data]);
    await expectExposedTools(client);
    await saveStartWaitRead(client);
    await approveThroughMcp(client);
    await badInputNamesTheField(client);
    expect(stderr()).toContain(`yukta mcp: serving ${data} (sqlite store) over stdio as mcp:stdio`);
  });

  it('with --key acts as that key: a VIEWER key is refused a start with the role named; a wrong key is refused at start', async () => {
    const data = await tempDataDir();
    writeFileSync(join(data, 'settings.json'), JSON.stringify(KEY_SETTINGS));
    const { client } = await spawnMcp(['--data', data, '--key', KEYS.viewer]);
    await viewerIsRefusedAStart(client, 'key:viewer');
    await client.close();
    const wrong = await runCli(['mcp', '--data', data, '--key', 'not-a-key-0123456789']);
    expect(wrong).toMatchObject({ code: 2, stdout: '' });
    expect(wrong.stderr).toContain('--key is not an API key of this data folder');
  });
});

describe("EXT-04 yukta mcp --url bridges stdio to a running host's /mcp", () => {
  it("relays tools, resources and updates with the key's role (OPERATOR approves, VIEWER is refused a start)", async () => {
    const url = await keyedServer();
    const admin = (await spawnMcp(['--url', url, '--key', KEYS.admin])).client;
    const operator = await spawnMcp(['--url', url, '--key', KEYS.operator]);
    await expectExposedTools(operator.client);
    await value(admin, 'workflows.save', { definition: GREETER }, z.object({ workflowId: z.string() }));
    await approveThroughMcp(operator.client, admin);
    expect(operator.stderr()).toContain(`yukta mcp: bridging stdio to ${url}/mcp`);
    await viewerIsRefusedAStart((await spawnMcp(['--url', `${url}/mcp`, '--key', KEYS.viewer])).client, 'key:viewer');
  });

  it("answers the agent with the host's refusal of a wrong key, and with an error naming an unreachable host, instead of hanging", async () => {
    const url = await keyedServer();
    await expect(spawnMcp(['--url', url, '--key', 'not-a-key-0123456789'])).rejects.toThrow(
      /the host at http:\/\/127\.0\.0\.1:\d+\/mcp refused the message: .*UNAUTHORIZED.*the API key is not valid/,
    );
    // Nothing listens on 4559 (one of this suite's ports): the initialize is answered with an error at once.
    await expect(spawnMcp(['--url', 'http://127.0.0.1:4559'])).rejects.toThrow(/cannot reach the host at http:\/\/127\.0\.0\.1:4559\/mcp/);
  });
});

describe('EXT-04 one host per data folder', () => {
  it('yukta mcp and yukta serve refuse a folder another live process holds, naming it and how to bridge', async () => {
    const data = await tempDataDir();
    const lock = lockDataFolder(data, { command: 'serve', url: 'http://127.0.0.1:4552' });
    cleanup.push(async () => lock.release());
    const mcp = await runCli(['mcp', '--data', data]);
    expect(mcp).toMatchObject({ code: 1, stdout: '' });
    expect(mcp.stderr).toContain(
      `the data folder ${data} is in use by yukta serve (pid ${process.pid}, serving at http://127.0.0.1:4552): bridge to it instead: yukta mcp --url http://127.0.0.1:4552`,
    );
    const serve = await runCli(['serve', '--data', data, '--port', '0']);
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain(`the data folder ${data} is in use by yukta serve (pid ${process.pid}`);
  });
});
