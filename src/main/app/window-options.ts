import type { BrowserWindowConstructorOptions } from 'electron'

/** What differs between windows; everything security-relevant is fixed. */
export interface WindowOptionsInput {
  /** Absolute path of the built preload (`out/preload/index.cjs`). */
  preloadPath: string
}

/**
 * The one place a window's options are made; `new BrowserWindow` is only ever called with this
 * (a test scans the sources). Every hardening setting is spelled out, even where Electron's
 * default already agrees, so a default changing upstream cannot loosen it silently.
 */
export function createWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    title: 'Sous',
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    show: false,
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      // Dropping a folder on the window must reach the renderer's drop handler, not navigate.
      navigateOnDragDrop: false,
      safeDialogs: true,
      spellcheck: false,
    },
  }
}
