/**
 * The desktop preload (sandboxed, bundled to dist/main/preload.cjs): exposes `window.yukta` with
 * `invoke` and `subscribe` only — never ipcRenderer itself.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './create-bridge';

contextBridge.exposeInMainWorld('yukta', createBridge(ipcRenderer));
