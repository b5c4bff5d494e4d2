/**
 * The desktop preload (sandboxed, bundled to dist/main/preload.cjs): exposes `window.yukta` with
 * `invoke` and `subscribe` only — never ipcRenderer itself — and `window.yuktaDesktop`, the desktop
 * shell's menu commands, opened files, native editing and host switch (STU-08).
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './create-bridge';
import { createDesktopBridge } from './create-desktop-bridge';

contextBridge.exposeInMainWorld('yukta', createBridge(ipcRenderer));
contextBridge.exposeInMainWorld('yuktaDesktop', createDesktopBridge(ipcRenderer));
