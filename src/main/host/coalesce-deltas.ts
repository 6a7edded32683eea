import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { AnyEventListener } from '../base/event-hub'

/** A streamed piece of an agent's reply: the events this file merges. */
type Delta = Extract<AgentEvent, { type: 'text_delta' | 'thinking_delta' }>

/** Options of {@link coalesceDeltas}. */
export interface CoalesceOptions {
  /** How long a delta may wait for more of the same agent's text (about one frame). */
  windowMs?: number
  /** Told when forwarding from the window's timer threw (there is no emitter to throw to); the rest still go. */
  onError?(error: unknown): void
}

/** A listener that merges deltas before they reach `forward`, and its way to let go of what it holds. */
export interface DeltaCoalescer {
  /** Subscribe this to the hub in place of `forward`. */
  listener: AnyEventListener
  /** Forwards everything held now, in order (the transport is closing: nothing is lost). */
  flush(): void
}

/** About one frame at 60 Hz: the renderer folds at most once per frame anyway. */
const DEFAULT_WINDOW_MS = 16

/**
 * Merges consecutive `text_delta` (and `thinking_delta`) events of the same agent that arrive
 * within one short window into one event with the concatenated text, for a transport that carries
 * the hub's events to a renderer. Eight subagents streaming a few characters every 30 ms are
 * hundreds of messages a second, each a task in the page (parse, check, six listeners) that shows
 * nothing new; merged, the renderer sees the same text in fewer, larger deltas.
 *
 * Contract: the output is the input with runs of deltas merged. Any other event (of any agent, on
 * any channel) first forwards everything held, so every event keeps its place relative to every
 * non-delta event and each agent's deltas stay in their order; only deltas of different agents
 * within one run may come out interleaved differently. A delta of the other kind (thinking after
 * text) forwards the held one first. The window's timer and {@link DeltaCoalescer.flush} forward
 * the rest. The merged event has the first delta's fields and the joined text, so the schema is
 * unchanged.
 *
 * Why here and not in the hub or the loop: the hub also feeds `sous -p --output-format
 * stream-json`, whose readers get each chunk as the model sent it, and the transcripts never hold
 * deltas; only the way to a renderer pays per message.
 */
export function coalesceDeltas(forward: AnyEventListener, options: CoalesceOptions = {}): DeltaCoalescer {
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS
  /** Held deltas by session and agent, in the order their agents first spoke in this run. */
  const held = new Map<string, { event: Delta; texts: string[] }>()
  let timer: ReturnType<typeof setTimeout> | undefined
  const onError = options.onError ?? ((error: unknown) => console.error('[sous] forwarding an event failed:', error))

  function release(key: string): void {
    const entry = held.get(key)
    if (!entry) return
    held.delete(key)
    forward('agent.event', entry.texts.length === 1 ? entry.event : { ...entry.event, text: entry.texts.join('') })
  }

  function flush(): void {
    // The timer stays until all went: if forwarding throws midway, it still sends the rest.
    for (const key of [...held.keys()]) release(key)
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }

  function flushOnTimer(): void {
    timer = undefined
    for (const key of [...held.keys()]) {
      try {
        release(key)
      } catch (error) {
        onError(error)
      }
    }
  }

  const listener: AnyEventListener = (channel, payload) => {
    const event = channel === 'agent.event' ? (payload as AgentEvent) : undefined
    if (event?.type !== 'text_delta' && event?.type !== 'thinking_delta') {
      flush()
      forward(channel, payload)
      return
    }
    const key = `${event.sessionId}\u0000${event.agentId}`
    const entry = held.get(key)
    if (entry && entry.event.type === event.type) {
      entry.texts.push(event.text)
      return
    }
    release(key)
    held.set(key, { event, texts: [event.text] })
    timer ??= setTimeout(flushOnTimer, windowMs)
  }

  return { listener, flush }
}
