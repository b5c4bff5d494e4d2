import type { StudioClient } from '../../../shared/api/client';
import { StudioApiError } from '../../../shared/api/errors';
import { roleAllows, type Role } from '../../../shared/api/roles';
import type { Whoami } from '../../../shared/api/security.schema';
import type { SetSettingResult } from '../../../shared/api/settings.schema';
import { useScheduler } from '../../store/scheduler-store';
import { useSettings, type Listing } from '../../store/settings-store';
import { createSchedulerActions } from '../scheduler/scheduler-actions';
import { describeError } from '../workflow/describe-error';

/** The role the API keys and secrets operations need (contract: apiKeys.*, secrets.*). */
export const SECURITY_ROLE: Role = 'ADMIN';

/** Why the caller may not do something that needs `need`, or null when it may. */
export function roleRefusal(whoami: Whoami | null, need: Role): string | null {
  if (whoami === null || roleAllows(whoami.role, need)) return null;
  return `Needs role ${need}; you are signed in as ${whoami.role} (${whoami.actor}).`;
}

/** A change's answer: done (with how it applies), or refused with the host's reason (it names the field). */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

async function attempt<T>(body: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await body() };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

/** What the Settings screen does; each talks to the host through the client and keeps the store in step. */
export interface SettingsActions {
  /** Reads who we are and every setting; the keys and secrets too when the role may list them. */
  refresh(): Promise<void>;
  setSetting(key: string, value: unknown): Promise<Outcome<SetSettingResult>>;
  createKey(input: { name: string; role: Role; sessions?: string[] }): Promise<Outcome<unknown>>;
  revokeKey(name: string): Promise<Outcome<unknown>>;
  setSecret(name: string, value: string): Promise<Outcome<unknown>>;
  deleteSecret(name: string): Promise<Outcome<unknown>>;
}

export function createSettingsActions(api: StudioClient, store = useSettings): SettingsActions {
  const listing = async <T>(whoami: Whoami | null, read: () => Promise<T[]>): Promise<Listing<T>> => {
    const refused = roleRefusal(whoami, SECURITY_ROLE);
    if (refused) return { refused };
    try {
      return { items: await read() };
    } catch (error) {
      const forbidden = error instanceof StudioApiError && (error.code === 'FORBIDDEN' || error.code === 'UNAUTHORIZED');
      return { refused: forbidden ? `Needs role ${SECURITY_ROLE}: ${error.message}.` : `Could not read: ${describeError(error)}` };
    }
  };
  const readKeys = async (whoami = store.getState().whoami) => store.getState().setKeys(await listing(whoami, () => api['apiKeys.list']({})));
  const readSecrets = async (whoami = store.getState().whoami) => store.getState().setSecrets(await listing(whoami, () => api['secrets.list']({})));

  return {
    async refresh() {
      const whoami = await api['auth.whoami']({}).catch(() => null);
      const [view, keys, secrets] = await Promise.all([
        api['settings.get']({}).then(
          (v) => ({ view: v, error: null }),
          (e: unknown) => ({ view: null, error: `Could not read the settings: ${describeError(e)}` }),
        ),
        listing(whoami, () => api['apiKeys.list']({})),
        listing(whoami, () => api['secrets.list']({})),
      ]);
      store.getState().setRead({ ...view, whoami, keys, secrets });
    },
    async setSetting(key, value) {
      const outcome = await attempt(() => api['settings.set']({ key, value }));
      if (!outcome.ok) return outcome;
      store.getState().putEntry(outcome.value.setting);
      // A live limit changed: the Scheduler tab, if it has read the scheduler, shows the new limits at once.
      if (outcome.value.applied === 'now' && useScheduler.getState().view) void createSchedulerActions(api).refresh();
      return outcome;
    },
    async createKey(input) {
      const outcome = await attempt(() => api['apiKeys.create'](input));
      if (outcome.ok) {
        store.getState().setCreated(outcome.value);
        await readKeys();
      }
      return outcome;
    },
    async revokeKey(name) {
      const outcome = await attempt(() => api['apiKeys.revoke']({ name }));
      if (outcome.ok) await readKeys();
      return outcome;
    },
    async setSecret(name, value) {
      const outcome = await attempt(() => api['secrets.set']({ name, value }));
      if (outcome.ok) await readSecrets();
      return outcome;
    },
    async deleteSecret(name) {
      const outcome = await attempt(() => api['secrets.delete']({ name }));
      if (outcome.ok) await readSecrets();
      return outcome;
    },
  };
}
