import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyIdFor, EXAMPLES } from './example-catalog';

const DIR = join(import.meta.dirname, '../../../assets/examples');

describe('issue 15 item 7: examples on first launch', () => {
  it('ships at least the five realistic examples, each with a description', () => {
    const ids = EXAMPLES.map((e) => e.id);
    for (const id of ['order-approval', 'http-fetch-retry', 'fan-out-aggregate', 'cron-digest', 'llm-triage']) expect(ids).toContain(id);
    expect(ids.slice(0, 5)).toEqual(['order-approval', 'http-fetch-retry', 'fan-out-aggregate', 'cron-digest', 'llm-triage']);
    for (const e of EXAMPLES) expect(e.description.length).toBeGreaterThan(20);
  });

  it('bundles every file of assets/examples', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
    expect(EXAMPLES.map((e) => `${e.id}.json`).sort()).toEqual(files.sort());
  });

  it('uses the HTTP retry, error route, WAIT_FOR_SIGNAL, cron and OpenAI-compatible features it is named after', () => {
    const byId = new Map(EXAMPLES.map((e) => [e.id, e.definition]));
    const node = (id: string, type: string) => byId.get(id)?.nodes.find((n) => n.type === type);
    expect(node('order-approval', 'WAIT_FOR_SIGNAL')?.config).toMatchObject({ onReject: 'ROUTE' });
    expect(node('http-fetch-retry', 'HTTP_REQUEST')?.config).toMatchObject({ engine: { retry: { maxAttempts: 3 }, onError: 'ROUTE' } });
    expect(byId.get('http-fetch-retry')?.edges.some((e) => e.sourcePort === 'error')).toBe(true);
    expect(node('fan-out-aggregate', 'AGGREGATE')?.config).toMatchObject({ mode: 'split' });
    expect(node('cron-digest', 'CRON_TRIGGER')?.config).toMatchObject({ expression: '0 8 * * 1-5', timezone: 'Europe/London' });
    expect(node('llm-triage', 'LLM_CALL')?.config).toMatchObject({ provider: 'openai', baseUrl: 'https://api.openai.com/v1' });
  });

  it('opens as a copy under an id the session does not use yet', () => {
    expect(copyIdFor('cron-digest', new Set())).toBe('cron-digest');
    expect(copyIdFor('cron-digest', new Set(['cron-digest', 'cron-digest-2']))).toBe('cron-digest-3');
  });
});
