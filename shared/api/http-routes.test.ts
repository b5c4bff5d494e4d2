import { describe, expect, it } from 'vitest';
import { inputFromHttp, toHttpRequest } from './http-routes';

describe('StudioApi REST mapping', () => {
  it('fills path parameters from the input and sends the rest as query for GET', () => {
    const req = toHttpRequest('workflows.get', { session: 'team a', workflowId: 'wf/1' });
    expect(req).toEqual({ method: 'GET', url: '/api/workflows/team%20a/wf%2F1' });
    const back = inputFromHttp('workflows.get', { session: 'team a', workflowId: 'wf/1' }, {}, undefined);
    expect(back).toEqual({ session: 'team a', workflowId: 'wf/1' });
  });

  it('sends non-GET input as a JSON body', () => {
    const req = toHttpRequest('runs.start', { workflowId: 'w', payload: { a: 1 } });
    expect(req).toEqual({ method: 'POST', url: '/api/workflow/start', body: { workflowId: 'w', payload: { a: 1 } } });
    expect(inputFromHttp('runs.start', {}, {}, req.body)).toEqual({ workflowId: 'w', payload: { a: 1 } });
  });

  it('puts GET fields in the query string and skips undefined ones', () => {
    const req = toHttpRequest('runs.list', { workflowId: 'w', limit: 5, status: undefined });
    expect(req.url).toBe('/api/executions?workflowId=w&limit=5');
  });
});
