import type { MenuItemConstructorOptions } from 'electron'

/** What the menu can do beyond Electron's built-in roles. */
export interface MenuActions {
  openFolder(): void
  /** Development builds only: reload and devtools. */
  developer: boolean
  isMac: boolean
}

/** A minimal menu: open a folder, the standard edit commands (copy/paste need them on macOS), view, window. */
export function menuTemplate(actions: MenuActions): MenuItemConstructorOptions[] {
  const template: MenuItemConstructorOptions[] = []
  if (actions.isMac) template.push({ role: 'appMenu' })
  template.push(
    {
      label: 'File',
      submenu: [
        { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => actions.openFolder() },
        { type: 'separator' },
        actions.isMac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        ...(actions.developer
          ? ([{ role: 'reload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as MenuItemConstructorOptions[])
          : []),
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
  )
  return template
}
