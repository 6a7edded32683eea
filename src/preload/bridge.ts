import type { SousApi } from '../shared/ipc/api'
import type { EventChannel, EventPayload, RequestChannel, RequestInput, RequestOutput } from '../shared/ipc/contract'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../shared/ipc/electron-channels'
import { createEventListeners } from '../shared/ipc/event-listeners'
import type { Result } from '../shared/ipc/result'

/**
 * What the preload exposes as `window.sous`: exactly the contract ({@link SousApi}) plus the one
 * desktop helper a sandboxed renderer needs to learn where a dropped folder lives.
 */
export interface DesktopApi extends SousApi {
  getPathForFile(file: File): string
}

/** The part of `ipcRenderer` the bridge uses (never exposed itself). */
export interface IpcLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown
}

/**
 * Events that may arrive before the renderer subscribes (the OS asked to open a folder while the
 * app was starting): held until the first listener for the channel appears.
 */
const HELD_UNTIL_SUBSCRIBED: ReadonlySet<string> = new Set<EventChannel>(['project.openRequested'])
const MAX_HELD = 20

/** Builds the bridged api over `ipcRenderer`. Only plain functions and values cross the bridge. */
export function createDesktopApi(ipc: IpcLike, getPathForFile: (file: File) => string): DesktopApi {
  const listeners = createEventListeners()
  const held = new Map<string, unknown[]>()

  ipc.on(EVENT_CHANNEL, (_event, channel, payload) => {
    if (typeof channel !== 'string') return
    if (listeners.dispatch(channel, payload) || !HELD_UNTIL_SUBSCRIBED.has(channel)) return
    const queue = held.get(channel) ?? []
    if (queue.length < MAX_HELD) queue.push(payload)
    held.set(channel, queue)
  })

  return {
    transport: 'electron',
    async invoke<C extends RequestChannel>(channel: C, input: RequestInput<C>): Promise<Result<RequestOutput<C>>> {
      try {
        return (await ipc.invoke(INVOKE_CHANNEL, channel, input)) as Result<RequestOutput<C>>
      } catch (error) {
        // Only reached when the input cannot be cloned (a function, a DOM node…) or main is gone.
        return { ok: false, error: { code: 'INVALID_INPUT', message: `${channel}: ${(error as Error).message}` } }
      }
    },
    on<C extends EventChannel>(channel: C, listener: (payload: EventPayload<C>) => void): () => void {
      const entry = listener as (payload: unknown) => void
      const off = listeners.add(channel, entry)
      const waiting = held.get(channel)
      if (waiting) {
        held.delete(channel)
        for (const payload of waiting) entry(payload)
      }
      return off
    },
    getPathForFile,
  }
}
