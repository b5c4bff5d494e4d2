import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../shared/api/security.schema';
import { chain, harness, processor, recorder } from '../test-support/engine-harness';
import { checkStartPayload, jsonSize } from './message-size';
import { environmentSecrets, SecretRedactor, SecretResolver } from './secrets';
import { AllowListVariables, looksSecret } from './variables';

const ENV = {
  YUKTA_VAR_REGION: 'eu-west',
  HOME: '/home/me',
  FOO: 'foo',
  MY_TOKEN: 't0k3n',
  YUKTA_VAR_API_KEY: 'k',
  DATABASE_PASSWORD: 'pw',
  YUKTA_SECRET_OPENAI: 'sk-canary-123456',
};

describe('SEC-02 variables: the allow-list', () => {
  const variables = new AllowListVariables({ env: ENV, allowed: ['FOO', 'MY_TOKEN', 'java.home'], settingsVars: { 'yukta.var.team': 'blue' } });

  it('reads YUKTA_VAR_*, harmless names and listed names; refuses the rest, naming the variable', () => {
    expect(variables.env('YUKTA_VAR_REGION')).toBe('eu-west');
    expect(variables.env('HOME')).toBe('/home/me');
    expect(variables.env('FOO')).toBe('foo');
    expect(() => new AllowListVariables({ env: ENV }).env('FOO')).toThrow(/\$\{env.FOO\} is not readable/);
    expect(variables.sys('os.name')).toBe(process.platform);
    expect(variables.sys('yukta.var.team')).toBe('blue');
    expect(() => variables.sys('user.country')).toThrow(/not readable/);
  });

  it('refuses names that look like secrets even when listed (and never shows their value)', () => {
    for (const name of [
      'MY_TOKEN',
      'YUKTA_VAR_API_KEY',
      'DATABASE_PASSWORD',
      'YUKTA_SECRET_OPENAI',
      'AWS_SECRET_ACCESS_KEY',
      'GITHUB_AUTH',
      'SESSION_ID',
      'PRIVATE_KEY_PATH',
    ]) {
      expect(looksSecret(name), name).toBe(true);
      expect(() => variables.env(name)).toThrow(/looks like a secret/);
    }
    for (const name of ['HOME', 'YUKTA_VAR_REGION', 'LANG', 'MONKEY_NAME']) expect(looksSecret(name), name).toBe(false);
  });

  it('${env.X} and ${sys.x} work in TRANSFORM through ctx.services; a refused one fails the node with bad input', async () => {
    const rec = recorder();
    const h = harness([rec.plugin], { security: { env: ENV, settings: { variables: { allowed: [], values: { 'yukta.var.team': 'blue' } } } } });
    const ok = await h.run(
      chain('vars', [
        { nodeId: 'x', type: 'TRANSFORM', config: { set: { region: '${env.YUKTA_VAR_REGION}', team: '${sys.yukta.var.team}', os: '${sys.os.name}' } } },
      ]),
    );
    expect(await h.engine.waitForRun(ok)).toBe('SUCCESS');
    expect(rec.seen).toEqual([{ region: 'eu-west', team: 'blue', os: process.platform }]);
    const bad = await h.run(chain('vars-bad', [{ nodeId: 'x', type: 'TRANSFORM', config: { set: { v: '${env.DATABASE_PASSWORD}' } } }]));
    expect(await h.engine.waitForRun(bad)).toBe('FAILURE');
    const error = h.engine.getRun(bad).nodes.find((n) => n.nodeId === 'x')!.error!;
    expect(error).toMatchObject({ name: 'BadInputError', code: 'VARIABLE_REFUSED' });
    expect(error.message).toContain('DATABASE_PASSWORD');
    expect(error.message).not.toContain('pw');
  });
});

describe('SEC-02 decrypted:<name> secrets', () => {
  it('resolves references from YUKTA_SECRET_<NAME> (stored secrets first) and names a missing one without any value', () => {
    const redactor = new SecretRedactor();
    const stored = { get: (name: string) => (name === 'stored' ? 'stored-value-1' : undefined) };
    const resolver = new SecretResolver({ get: (n) => stored.get(n) ?? environmentSecrets(ENV).get(n) }, redactor);
    expect(resolver.resolve('Bearer decrypted:openai')).toBe('Bearer sk-canary-123456');
    expect(resolver.resolveDeep({ h: ['decrypted:stored'] })).toEqual({ h: ['stored-value-1'] });
    expect(() => resolver.resolve('decrypted:nope')).toThrow(/secret "nope" is not set .*YUKTA_SECRET_NOPE/);
    expect(environmentSecrets(ENV).names()).toEqual(['OPENAI']);
    expect(redactor.redactText('x sk-canary-123456 y')).toBe(`x ${SECRET_MASK} y`);
  });

  it('masks a resolved secret in every event: log lines, outputs, results and errors (the value never leaves the engine)', async () => {
    const rec = recorder();
    const leaky = processor('LEAKY', (message, ctx) => {
      const value = ctx.services.secrets.resolve('decrypted:openai');
      ctx.log.info(`calling with ${value}`);
      if ((message.payload as { fail?: boolean }).fail) throw new Error(`provider refused key ${value}`);
      return [{ payload: { echoed: value } }];
    });
    const h = harness([rec.plugin, leaky], { security: { env: ENV } });
    const ok = await h.run(chain('leak', [{ nodeId: 'l', type: 'LEAKY' }]), {});
    await h.engine.waitForRun(ok);
    const failed = await h.run(chain('leak2', [{ nodeId: 'l', type: 'LEAKY' }]), { fail: true });
    await h.engine.waitForRun(failed);
    const published = JSON.stringify(h.events) + JSON.stringify([h.engine.getRun(ok), h.engine.getRun(failed)]);
    expect(published.split('sk-canary-123456').length - 1).toBe(0);
    expect(published).toContain(`calling with ${SECRET_MASK}`);
    expect(published).toContain(`provider refused key ${SECRET_MASK}`);
  });
});

describe('SEC-03 start payload size cap (yukta.execution.max-message-bytes)', () => {
  it('counts JSON bytes without building the text and stops early on huge values', () => {
    const value = { a: 'é', b: [1, true, null], c: { d: 'text' } };
    const exact = Buffer.byteLength(JSON.stringify(value));
    expect(jsonSize(value, 1000)).toBeGreaterThanOrEqual(exact);
    expect(jsonSize(value, 1000)).toBeLessThanOrEqual(exact + 4);
    const huge = Array.from({ length: 1_000_000 }, () => 'xxxxxxxx');
    expect(jsonSize(huge, 1000)).toBeGreaterThan(1000);
    expect(() => checkStartPayload({ big: 'x'.repeat(2000) }, 1024)).toThrow(/larger than 1024 bytes/);
  });

  it('refuses a start whose payload is over the cap with PAYLOAD_TOO_LARGE before any run exists', async () => {
    const h = harness([recorder().plugin], { security: { settings: { maxMessageBytes: 1024 } } });
    await h.engine.saveWorkflow('test', chain('cap', []));
    await expect(h.engine.startRun({ session: 'test', workflowId: 'cap', payload: { big: 'x'.repeat(2000) } })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
      path: 'payload',
    });
    expect(h.engine.listRuns({ limit: 10 })).toEqual([]);
  });
});
