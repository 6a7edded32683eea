import type { SousApi } from '../../../shared/ipc/api'
import type { EventChannel, EventPayload } from '../../../shared/ipc/contract'
import { loadEventSchema, loadedEventSchema, type EventSchema } from '../../../shared/ipc/event-schemas'

/** An event whose payload did not match its channel's schema in the contract; it was dropped. */
export interface MalformedEvent {
  channel: EventChannel
  /** What was wrong, one issue per line (`path: message`). */
  issues: string
}

/** What a check found: the parsed payload, or nothing (it was malformed). */
type Checked = { ok: true; value: unknown } | { ok: false }

/** Issues beyond this many are summarised, so a huge malformed payload stays a short report. */
const MAX_ISSUES = 5

/** A transport whose events are checked; {@link CheckedApi.settled} says when none is held back. */
export interface CheckedApi extends SousApi {
  /** Resolves once every event that has arrived so far has been checked and delivered (or dropped). */
  settled(): Promise<void>
}

/**
 * Wraps a transport so every event payload is parsed against the contract's schema for its
 * channel before any listener sees it. A payload that does not parse is reported once (even when
 * several listeners share it) and dropped: listeners only ever receive what the contract promises.
 * Requests pass through (the host validates them, and replies are validated there too).
 *
 * Contract: never throws; listeners receive zod's parsed output (unknown keys stripped); events
 * and replies reach the renderer in the order they arrived.
 *
 * Each domain's schemas are loaded the first time one of its channels carries an event
 * (`shared/ipc/event-schemas.ts`: building them all with the api was a long task of the window's
 * start). Until they are in, that event and everything after it — other channels' events and
 * request replies too — wait in arrival order, so no listener sees a later event before an
 * earlier one. The queue is delivered in a task of its own after the chunk's evaluation, so the
 * two do not add up to one long task. A domain whose chunk cannot be loaded has its waiting events
 * reported and dropped (never delivered unchecked); its next event tries the load again.
 *
 * Why per subscription and not inside the transports: both transports (the Electron preload and the
 * WebSocket client) deliver through the same `on`, so one wrapper covers both without touching
 * their listener registries. The WebSocket client hands one payload object to every listener, so
 * a WeakMap keyed by that object parses each event once however many features listen.
 */
export function withCheckedEvents(transport: SousApi, report: (problem: MalformedEvent) => void): CheckedApi {
  const seen = new WeakMap<object, Checked>()
  /** What arrived while a domain's schemas were loading, in arrival order. */
  const waiting: Array<{ channel?: EventChannel; run: (failure?: string) => void }> = []
  const idle: Array<() => void> = []

  function check(channel: EventChannel, schema: EventSchema, payload: unknown): Checked {
    const cacheable = typeof payload === 'object' && payload !== null
    const cached = cacheable ? seen.get(payload) : undefined
    if (cached) return cached
    const parsed = schema.safeParse(payload)
    const result: Checked = parsed.success ? { ok: true, value: parsed.data } : { ok: false }
    if (cacheable) seen.set(payload, result)
    if (!parsed.success) report({ channel, issues: describeIssues(parsed.error.issues) })
    return result
  }

  /** Delivers from the front of the queue while the front's schema is in; loads it when not. */
  function drain(): void {
    while (waiting.length > 0) {
      const head = waiting[0]!
      if (head.channel && !loadedEventSchema(head.channel)) {
        loadEventSchema(head.channel).then(
          () => setTimeout(drain, 0),
          (error: unknown) => setTimeout(() => fail(head.channel!, error), 0),
        )
        return
      }
      waiting.shift()
      head.run()
    }
    for (const done of idle.splice(0)) done()
  }

  /** The channel's domain could not be loaded: its waiting events are reported and dropped. */
  function fail(channel: EventChannel, error: unknown): void {
    const why = `its schemas could not be loaded (${error instanceof Error ? error.message : String(error)}); the event was dropped`
    for (let index = 0; index < waiting.length; ) {
      const item = waiting[index]!
      if (item.channel === channel) {
        waiting.splice(index, 1)
        item.run(why)
      } else index++
    }
    drain()
  }

  return {
    transport: transport.transport,
    invoke: (channel, input) =>
      transport.invoke(channel, input).then((result) => {
        if (waiting.length === 0) return result
        // A reply must not overtake the events that arrived before it.
        return new Promise<typeof result>((resolve) => waiting.push({ run: () => resolve(result) }))
      }),
    on<C extends EventChannel>(channel: C, listener: (payload: EventPayload<C>) => void): () => void {
      // An event that waited is not handed to a listener that has unsubscribed meanwhile.
      let subscribed = true
      // The transport's payload type is a promise nothing has kept yet: treat it as unknown.
      const unsubscribe = transport.on(channel, (payload: unknown) => {
        const deliver = (schema: EventSchema): void => {
          const checked = check(channel, schema, payload)
          if (checked.ok && subscribed) listener(checked.value as EventPayload<C>)
        }
        const schema = loadedEventSchema(channel)
        if (schema && waiting.length === 0) return deliver(schema)
        waiting.push({
          channel,
          run: (failure) => {
            if (failure === undefined) return deliver(loadedEventSchema(channel)!)
            // Once per payload, however many listeners it had.
            const cacheable = typeof payload === 'object' && payload !== null
            if (cacheable && seen.has(payload)) return
            if (cacheable) seen.set(payload, { ok: false })
            report({ channel, issues: failure })
          },
        })
        if (waiting.length === 1) drain()
      })
      return () => {
        subscribed = false
        unsubscribe()
      }
    },
    settled: () => (waiting.length === 0 ? Promise.resolve() : new Promise((resolve) => idle.push(resolve))),
  }
}

/** `path: message` per issue, the first few only. */
export function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  const lines = issues.slice(0, MAX_ISSUES).map((issue) => {
    const path = issue.path.map(String).join('.')
    return path ? `${path}: ${issue.message}` : issue.message
  })
  if (issues.length > MAX_ISSUES) lines.push(`…and ${issues.length - MAX_ISSUES} more`)
  return lines.join('\n')
}
