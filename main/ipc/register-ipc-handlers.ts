import { z } from 'zod';
import { OPERATION_NAMES } from '../../shared/api/contract';
import { StudioApiError, type ApiErrorData, type ApiResult } from '../../shared/api/errors';
import type { Caller } from '../../shared/api/roles';
import { joinPath } from '../../shared/workflow/validation-issue';
import { apiErrorOf } from '../host/api-errors';
import { LOCAL_UI_CALLER, type StudioHost } from '../host/studio-host';
import { operationChannel, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL } from './ipc-channels';
import { IpcSubscriptions, SubscribeRequest } from './ipc-subscriptions';
import type { IpcInvokeEventLike, IpcMainLike, SenderFrameLike } from './ipc-types';

export interface IpcHandlerOptions {
  /** Whether a frame is the studio's own page (see `createTrustedSenderCheck`). */
  isTrustedSender(frame: SenderFrameLike | null): boolean;
  /** Who the renderer is; the local user is ADMIN by default (SEC-01). */
  caller?: Caller;
}

export interface IpcRegistration {
  readonly subscriptions: IpcSubscriptions;
  /** Removes every handler and ends every subscription. */
  dispose(): void;
}

const FORBIDDEN: ApiErrorData = { code: 'FORBIDDEN', message: 'IPC refused: the sender is not the studio window' };

function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = joinPath(issue.path);
  throw new StudioApiError('BAD_INPUT', `${path || 'input'}: ${issue.message}`, path || undefined);
}

/** Runs a handler body for a trusted sender; every failure comes back as data (Electron keeps only an Error's message). */
function guarded(options: IpcHandlerOptions, body: (event: IpcInvokeEventLike, args: unknown[]) => Promise<ApiResult<unknown>> | ApiResult<unknown>) {
  return async (event: IpcInvokeEventLike, ...args: unknown[]): Promise<ApiResult<unknown>> => {
    if (!options.isTrustedSender(event.senderFrame)) return { ok: false, error: FORBIDDEN };
    try {
      return await body(event, args);
    } catch (error) {
      const known = apiErrorOf(error);
      if (known) return { ok: false, error: known };
      return { ok: false, error: { code: 'INTERNAL', message: error instanceof Error ? error.message : 'internal error' } };
    }
  };
}

/**
 * The StudioApi over Electron IPC: one `yukta:op:<name>` handler per contract operation (a new operation
 * gets its channel without a change here), plus event subscriptions pushed as batches on `yukta:events`.
 * Every handler checks the sender frame first and returns `ApiResult`, never throws.
 */
export function registerIpcHandlers(ipcMain: IpcMainLike, host: StudioHost, options: IpcHandlerOptions): IpcRegistration {
  const caller = options.caller ?? LOCAL_UI_CALLER;
  const subscriptions = new IpcSubscriptions(host);
  const channels: string[] = [];
  const handle = (channel: string, listener: ReturnType<typeof guarded>): void => {
    ipcMain.handle(channel, listener);
    channels.push(channel);
  };
  for (const operation of OPERATION_NAMES) {
    handle(
      operationChannel(operation),
      guarded(options, (_event, [input]) => host.invoke(operation, input, caller)),
    );
  }
  handle(
    SUBSCRIBE_CHANNEL,
    guarded(options, (event, [request]) => {
      subscriptions.subscribe(event.sender, parseOrThrow(SubscribeRequest, request));
      return { ok: true, value: null };
    }),
  );
  handle(
    UNSUBSCRIBE_CHANNEL,
    guarded(options, (event, [id]) => {
      subscriptions.unsubscribe(event.sender, parseOrThrow(z.string().min(1).max(64), id));
      return { ok: true, value: null };
    }),
  );
  return {
    subscriptions,
    dispose() {
      for (const channel of channels.splice(0)) ipcMain.removeHandler(channel);
      subscriptions.closeAll();
    },
  };
}
