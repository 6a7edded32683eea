import type { SousApi } from '../../../shared/ipc/api'
import { events, type EventChannel, type EventPayload } from '../../../shared/ipc/contract'

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

/**
 * Wraps a transport so every event payload is parsed against the contract's schema for its
 * channel before any listener sees it. A payload that does not parse is reported once (even when
 * several listeners share it) and dropped: listeners only ever receive what the contract promises.
 * Requests pass through untouched (the host validates them, and replies are validated there too).
 *
 * Contract: never throws; listeners receive zod's parsed output (unknown keys stripped).
 *
 * Why per subscription and not inside the transports: both transports (the Electron preload and the
 * WebSocket client) deliver through the same `on`, so one wrapper covers both without touching
 * their listener registries. The WebSocket client hands one payload object to every listener, so
 * a WeakMap keyed by that object parses each event once however many features listen.
 */
export function withCheckedEvents(transport: SousApi, report: (problem: MalformedEvent) => void): SousApi {
  const seen = new WeakMap<object, Checked>()

  function check(channel: EventChannel, payload: unknown): Checked {
    const cacheable = typeof payload === 'object' && payload !== null
    const cached = cacheable ? seen.get(payload) : undefined
    if (cached) return cached
    const parsed = events[channel].safeParse(payload)
    const result: Checked = parsed.success ? { ok: true, value: parsed.data } : { ok: false }
    if (cacheable) seen.set(payload, result)
    if (!parsed.success) report({ channel, issues: describeIssues(parsed.error.issues) })
    return result
  }

  return {
    transport: transport.transport,
    invoke: (channel, input) => transport.invoke(channel, input),
    on<C extends EventChannel>(channel: C, listener: (payload: EventPayload<C>) => void): () => void {
      // The transport's payload type is a promise nothing has kept yet: treat it as unknown.
      return transport.on(channel, (payload: unknown) => {
        const checked = check(channel, payload)
        if (checked.ok) listener(checked.value as EventPayload<C>)
      })
    },
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
