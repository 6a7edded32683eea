import { fileURLToPath } from 'node:url'
import { app, BrowserWindow, dialog, ipcMain, Menu, Notification, safeStorage, session } from 'electron'
import { cspHeader } from '../shared/csp'
import { startApprovalNotifications, type AttentionShell } from './app/attention'
import { hardenSession, hardenWebContents } from './app/harden'
import { menuTemplate } from './app/menu'
import { folderFromArgv, OpenRequestQueue } from './app/open-requests'
import { registerAppScheme, serveAppProtocol } from './app/protocol'
import { createWindowOptions } from './app/window-options'
import { sealOwnCredentials } from './base/own-credentials'
import { sousHome } from './base/paths'
import type { Core } from './core'
import { createHostCore } from './host-core'
import { attachElectronTransport } from './host/electron'
import { approvalHandlers } from './host/handlers/approval'
import { APP_URL, isAllowedUrl } from './host/sender-policy'
import { SafeStorageKeyStore } from './secrets/safe-storage-key-store'

/**
 * The desktop entry: hardened shell + core + Electron transport. Everything testable lives in
 * `app/`, `host/` and the core; this file only wires Electron's objects to them.
 */

// Before anything else: the model credentials leave the process environment and its start-up
// block (/proc/<pid>/environ); only this copy in memory keeps them (see base/own-credentials.ts).
const { env } = sealOwnCredentials()

// electron-vite sets this in development only; a packaged app never loads from a server.
const devUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL
const appOrigins = devUrl ? [APP_URL, devUrl] : [APP_URL]
const rendererDir = fileURLToPath(new URL('../renderer', import.meta.url))
const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url))

let core: Core | undefined
let mainWindow: BrowserWindow | undefined
const openRequests = new OpenRequestQueue((path) => core?.events.emit('project.openRequested', { path }))

registerAppScheme()

// macOS: a folder dropped on the Dock icon or opened with "Open With"; may fire before ready.
app.on('open-file', (event, path) => {
  event.preventDefault()
  openRequests.request(path)
})

if (!app.requestSingleInstanceLock()) {
  // Another Sous is running: it receives our argv through 'second-instance'.
  app.quit()
} else {
  app.on('second-instance', (_event, argv, workingDirectory) => {
    const folder = folderFromArgv(argv.slice(1), workingDirectory)
    if (folder) openRequests.request(folder)
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore()
      mainWindow.focus()
    }
  })
  const initial = folderFromArgv(process.argv.slice(process.defaultApp ? 2 : 1), process.cwd())
  if (initial) openRequests.request(initial)
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, appOrigins))
  app.whenReady().then(start, (error: unknown) => {
    console.error('[sous] failed to start:', error)
    app.exit(1)
  })
}

async function pickFolder(): Promise<string | null> {
  const options = { properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'> }
  const result = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options)
  return result.canceled ? null : (result.filePaths[0] ?? null)
}

/** Electron's badge and notifications, behind the interface `app/attention.ts` is tested with. */
const attentionShell: AttentionShell = {
  // Linux: Unity launchers only; elsewhere the dock (macOS) or the taskbar overlay (Windows).
  setBadgeCount: (count) => void app.setBadgeCount(count),
  focused: () => BrowserWindow.getFocusedWindow() !== null,
  notify(notice, on) {
    if (!Notification.isSupported()) return { close: () => undefined }
    const note = new Notification({ title: notice.title, body: notice.body, actions: notice.actions.map((text) => ({ type: 'button' as const, text })) })
    note.on('action', (_event, index) => on.action(index))
    note.on('click', () => on.click())
    note.show()
    return { close: () => note.close() }
  },
  show() {
    if (mainWindow?.isMinimized()) mainWindow.restore()
    mainWindow?.focus()
  },
}

function start(): void {
  const csp = cspHeader({ dev: devUrl !== undefined })
  hardenSession(session.defaultSession, { csp, appOrigins })
  serveAppProtocol(session.defaultSession.protocol, rendererDir, csp)

  const home = sousHome(env)
  const host = createHostCore({
    transport: 'electron',
    home,
    env,
    keyStore: new SafeStorageKeyStore(home, safeStorage, env),
    log: (message) => console.error(`[sous] ${message}`),
    pickFolder,
    appOrigins,
    badge: attentionShell,
  })
  core = host.core
  const reply = approvalHandlers(host.runtime.approvals)['approval.reply']
  startApprovalNotifications({
    shell: attentionShell,
    events: host.core.events,
    // Answered elsewhere a moment before: nothing to do.
    reply: async (id, decision) => {
      try {
        await reply({ id, decision }, { sender: { transport: 'internal' } })
      } catch (error) {
        console.error(`[sous] answering from a notification failed: ${String(error)}`)
      }
    },
  })
  attachElectronTransport({
    ipcMain,
    core: host.core,
    targets: () => BrowserWindow.getAllWindows().map((window) => window.webContents),
    isTrustedUrl: (url) => isAllowedUrl(url, appOrigins),
  })

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate({
        isMac: process.platform === 'darwin',
        developer: !app.isPackaged,
        openFolder: () => {
          void pickFolder().then((path) => path && openRequests.request(path))
        },
      }),
    ),
  )

  createMainWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createMainWindow()
  })
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  // Kill terminals and end sessions before quitting; Electron does not wait for promises.
  let disposed = false
  app.on('will-quit', (event) => {
    if (disposed) return
    event.preventDefault()
    void host.dispose().finally(() => {
      disposed = true
      app.quit()
    })
  })
}

function createMainWindow(): void {
  const window = new BrowserWindow(createWindowOptions({ preloadPath }))
  mainWindow = window
  window.once('ready-to-show', () => window.show())
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = undefined
  })
  window.webContents.on('did-start-loading', () => openRequests.setReady(false))
  window.webContents.on('did-finish-load', () => openRequests.setReady(true))
  void window.loadURL(devUrl ?? APP_URL)
}
