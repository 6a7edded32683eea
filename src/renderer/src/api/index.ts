import type { SousApi } from '../../../shared/ipc/api'
import { withCheckedEvents } from './checked-events'
import { createEventProblemLog, type EventProblemLog } from './event-problems'
import { pageSocketProtocols } from './socket-key'
import { createWsClient, type ConnectionState } from './ws-client'

/**
 * What the Electron preload exposes as `window.sous`: the api itself plus the one desktop-only
 * helper a sandboxed renderer needs to learn where a dropped file lives.
 */
export interface SousPreload extends SousApi {
  getPathForFile?(file: File): string
}

declare global {
  interface Window {
    sous?: SousPreload
  }
}

/** The WebSocket path of `sous serve`, on the origin that served this page. */
export const WS_PATH = '/ws'

function wsUrl(): string {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  return `${scheme}//${location.host}${WS_PATH}`
}

interface Connection {
  readonly state: ConnectionState
  onState(listener: (state: ConnectionState) => void): () => void
}

function pickTransport(): { api: SousApi; connection: Connection; pathForFile: (file: File) => string | undefined } {
  const preload = window.sous
  if (preload) {
    return {
      api: preload,
      connection: { state: 'open', onState: () => () => undefined },
      pathForFile: (file) => preload.getPathForFile?.(file) || undefined,
    }
  }
  const client = createWsClient({ url: wsUrl(), protocols: pageSocketProtocols() })
  return { api: client, connection: client, pathForFile: () => undefined }
}

const chosen = pickTransport()

/** Events that did not match the contract and were dropped, for the shell's notice. */
export const eventProblems: EventProblemLog = createEventProblemLog()

/**
 * The one way features talk to Sous; they never learn which transport carries it. Every event
 * payload is parsed against the contract here, where it enters the renderer: a malformed one is
 * reported to {@link eventProblems} and never reaches a feature.
 */
export const api: SousApi = withCheckedEvents(chosen.api, eventProblems.report)

/** Whether the link to Sous is up (always `open` in Electron), for the shell's banner. */
export const connection: Connection = chosen.connection

/** Where a dropped file lives on disk, when the host can tell (desktop only). */
export const pathForFile: (file: File) => string | undefined = chosen.pathForFile

export type { ConnectionState }
export type { EventProblems } from './event-problems'
