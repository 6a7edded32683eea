import type { EventChannel, EventPayload, events as contractEvents } from '../../shared/ipc/contract'

// The contract's event schemas are only read when payloads are checked (tests, e2e servers), so
// they are loaded only then: building every domain's schemas costs a cold `sous -p` ~10 MB and
// tens of ms (bench/startup.bench.ts) for checks the shipped app does not make.
const eventSchemas: typeof contractEvents | undefined = checksPayloadsByDefault() ? (await import('../../shared/ipc/contract')).events : undefined

/** A listener for every event channel at once (what a transport forwards). */
export type AnyEventListener = <C extends EventChannel>(channel: C, payload: EventPayload<C>) => void

/**
 * Fan-out of main-process events to whoever carries them to renderers (Electron windows,
 * WebSocket clients). Services emit; transports subscribe.
 */
export interface EventHub {
  /** Contract: with payload checks on, a payload the contract rejects throws (a bug in the emitter) and reaches no one. */
  emit<C extends EventChannel>(channel: C, payload: EventPayload<C>): void
  /** Returns the unsubscribe function. */
  subscribe(listener: AnyEventListener): () => void
}

/** Options of {@link createEventHub}. */
export interface EventHubOptions {
  /** Told about a listener that threw; the other listeners still run. */
  onListenerError?(error: unknown): void
  /**
   * Check every payload against the contract's event schema before it leaves. On under vitest and
   * with `SOUS_CHECK_EVENTS=1` (the e2e servers), so a malformed emit fails a test; off in the
   * shipped app, where parsing every streamed delta twice would cost for nothing.
   */
  checkPayloads?: boolean
}

/** Whether payload checks are on when the caller does not say: in tests and when asked by the environment. */
export function checksPayloadsByDefault(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env['VITEST']) || env['SOUS_CHECK_EVENTS'] === '1'
}

/** Creates a hub; a listener that throws is isolated from the others. */
export function createEventHub(options: EventHubOptions | ((error: unknown) => void) = {}): EventHub {
  const { onListenerError, checkPayloads = checksPayloadsByDefault() } = typeof options === 'function' ? { onListenerError: options } : options
  const listeners = new Set<AnyEventListener>()
  return {
    emit(channel, payload) {
      if (checkPayloads) checkPayload(channel, payload)
      for (const listener of listeners) {
        try {
          listener(channel, payload)
        } catch (error) {
          onListenerError?.(error)
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** Throws, naming the channel and the first problem, when the contract rejects a payload. */
function checkPayload(channel: EventChannel, payload: unknown): void {
  if (!eventSchemas) throw new Error('Event payload checks need the contract loaded at start-up: set SOUS_CHECK_EVENTS=1 in the environment.')
  const schema = eventSchemas[channel]
  if (!schema) throw new Error(`The event channel ${String(channel)} is not in the contract.`)
  const parsed = schema.safeParse(payload)
  if (parsed.success) return
  const issue = parsed.error.issues[0]
  const where = issue?.path.length ? ` at ${issue.path.map(String).join('.')}` : ''
  throw new Error(`A ${channel} event does not match the contract${where}: ${issue?.message ?? 'invalid'}`)
}
