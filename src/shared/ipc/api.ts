import type { EventChannel, EventPayload, RequestChannel, RequestInput, RequestOutput } from './contract'
import type { Result } from './result'

/**
 * The surface the renderer sees, whatever the transport: `window.sous` in Electron (preload),
 * a WebSocket client in the browser host. Features use it through `src/renderer/src/api`.
 */
export interface SousApi {
  /** Sends a request; never throws for expected failures. */
  invoke<C extends RequestChannel>(channel: C, input: RequestInput<C>): Promise<Result<RequestOutput<C>>>
  /** Subscribes to an event channel; returns the unsubscribe function. */
  on<C extends EventChannel>(channel: C, listener: (payload: EventPayload<C>) => void): () => void
  /** Which transport carries this api. */
  readonly transport: 'electron' | 'browser'
}
