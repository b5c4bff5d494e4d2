/**
 * IPC channel names shared by main/ipc and the preload bridge. Kept free of imports so the preload
 * bundle stays small.
 */
export const OPERATION_CHANNEL_PREFIX = 'yukta:op:';
/** `ipcRenderer.invoke(SUBSCRIBE_CHANNEL, {page, id, filter})` → ApiResult<null>. */
export const SUBSCRIBE_CHANNEL = 'yukta:subscribe';
/** `ipcRenderer.invoke(UNSUBSCRIBE_CHANNEL, id)` → ApiResult<null>. */
export const UNSUBSCRIBE_CHANNEL = 'yukta:unsubscribe';
/** Main → renderer: `(subscriptionId, batch)`. */
export const EVENTS_CHANNEL = 'yukta:events';

/** The channel of one StudioApi operation: `yukta:op:<name>`. */
export function operationChannel(operation: string): string {
  return `${OPERATION_CHANNEL_PREFIX}${operation}`;
}
