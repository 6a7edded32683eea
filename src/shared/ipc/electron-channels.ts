/**
 * The two Electron IPC channel names that carry the whole contract. Deliberately import-free:
 * the sandboxed preload bundles this file and may `require` nothing but `electron`.
 */

/** Renderer → main: `ipcRenderer.invoke(INVOKE_CHANNEL, channel, payload)` → `Result`. */
export const INVOKE_CHANNEL = 'sous:invoke'

/** Main → renderer: `webContents.send(EVENT_CHANNEL, channel, payload)`. */
export const EVENT_CHANNEL = 'sous:event'
