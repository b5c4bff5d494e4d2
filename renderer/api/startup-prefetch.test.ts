import { describe, expect, it } from 'vitest';
import { createFakeStudioClient } from '../test-support/fake-studio-client';
import { CHAIN } from '../test-support/open-app';
import { withStartupPrefetch } from './startup-prefetch';

describe('STU-01 startup prefetch', () => {
  it('starts node types and the routed workflow at once, answers the first calls with them, later calls go through', async () => {
    const fake = createFakeStudioClient([{ session: 'default', definition: CHAIN, version: '', savedAt: 1 }]);
    const client = withStartupPrefetch(fake.client, { session: 'default', workflowId: 'hello' });
    expect(fake.client['nodeTypes.list']).toHaveBeenCalledTimes(1);
    expect(fake.client['workflows.get']).toHaveBeenCalledTimes(1);
    expect((await client['workflows.get']({ session: 'default', workflowId: 'hello' })).definition).toEqual(CHAIN);
    expect(await client['nodeTypes.list']({})).toHaveLength(5);
    expect(fake.client['workflows.get']).toHaveBeenCalledTimes(1);
    await client['nodeTypes.list']({});
    expect(fake.client['nodeTypes.list']).toHaveBeenCalledTimes(2);
  });

  it('does not hand the prefetched workflow to a call for another one, and swallows a prefetch nobody takes', async () => {
    const fake = createFakeStudioClient([{ session: 'default', definition: CHAIN, version: '', savedAt: 1 }]);
    const client = withStartupPrefetch(fake.client, { session: 'default', workflowId: 'missing' });
    await expect(client['workflows.get']({ session: 'default', workflowId: 'hello' })).resolves.toMatchObject({ session: 'default' });
    expect(fake.client['workflows.get']).toHaveBeenCalledTimes(2);
  });
});
