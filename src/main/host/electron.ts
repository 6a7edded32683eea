import type { IpcMain, IpcMainInvokeEvent } from 'electron'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../../shared/ipc/electron-channels'
import type { EventHub } from '../base/event-hub'
import { coalesceDeltas } from './coalesce-deltas'
import type { Router } from './router'

/** A renderer the transport may send events to. */
export interface EventTarget {
  isDestroyed(): boolean
  getURL(): string
  send(channel: string, ...args: unknown[]): void
}

/** Options for {@link attachElectronTransport}. Electron objects come in so this file stays testable. */
export interface ElectronTransportOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>
  core: { router: Router; events: EventHub }
  /** The windows' web contents (e.g. `() => BrowserWindow.getAllWindows().map((w) => w.webContents)`). */
  targets: () => Iterable<EventTarget>
  /** Only renderers showing our app receive events (the same policy as senders). */
  isTrustedUrl: (url: string) => boolean
}

/**
 * The desktop transport: one `ipcMain.handle` channel into the router, with the sender's frame URL
 * for the router's trusted-sender check; EventHub events pushed to our windows (streamed deltas
 * merged per frame). Returns the
 * detach function.
 */
export function attachElectronTransport(options: ElectronTransportOptions): () => void {
  const { ipcMain, core } = options
  ipcMain.handle(INVOKE_CHANNEL, (event: Pick<IpcMainInvokeEvent, 'senderFrame'>, channel: unknown, payload: unknown) =>
    core.router.invoke(channel, payload, { transport: 'electron', frameUrl: frameUrlOf(event) }),
  )
  // Streamed text reaches the windows merged per frame (see coalesce-deltas.ts).
  const coalescer = coalesceDeltas((channel, payload) => {
    for (const target of options.targets()) {
      if (target.isDestroyed() || !options.isTrustedUrl(target.getURL())) continue
      target.send(EVENT_CHANNEL, channel, payload)
    }
  })
  const unsubscribe = core.events.subscribe(coalescer.listener)
  return () => {
    ipcMain.removeHandler(INVOKE_CHANNEL)
    unsubscribe()
    coalescer.flush()
  }
}

function frameUrlOf(event: Pick<IpcMainInvokeEvent, 'senderFrame'>): string | undefined {
  try {
    // `senderFrame` is null once the frame navigated or was destroyed; reading it can throw then.
    return event.senderFrame?.url
  } catch {
    return undefined
  }
}
