import { contextBridge, ipcRenderer, webUtils } from 'electron'
import { createDesktopApi } from './bridge'

// The sandboxed preload: the contract as `window.sous`, nothing else — never ipcRenderer itself.
contextBridge.exposeInMainWorld(
  'sous',
  createDesktopApi(ipcRenderer, (file) => webUtils.getPathForFile(file)),
)
