import type { Message } from '../services/model/types'
import { assistantCutAtOrAfter, markerBlock, recoveryHint, withMarker } from './conversation'

/** How a snip marker starts, so a later snip replaces it instead of adding a second one. */
export const SNIP_MARKER = '[Snipped:'

/** What a snip did. */
export interface Snipped {
  messages: Message[]
  /** Messages taken out of the middle. */
  removed: number
}

/**
 * Snip: when the conversation holds more than `above` messages, keep its head (the first prompt:
 * the task) and its tail (the newest messages, about `to` in all) and take out the middle. A
 * marker on the head tells the model what happened. The tail starts at an assistant message at a
 * safe cut, so no tool_use is separated from its tool_result and roles still alternate. Runs only
 * past the threshold and cuts well below it, so between snips the request prefix stays the same.
 * The manager calls it only under token pressure (`pressureAt`): a count alone never cuts.
 */
export function snip(messages: readonly Message[], above: number, to: number, transcriptPath?: string): Snipped | undefined {
  if (messages.length <= above) return undefined
  const head = messages[0]
  if (!head || head.role !== 'user') return undefined
  const start = assistantCutAtOrAfter(messages, messages.length - Math.max(2, to - 1))
  if (start === undefined || start <= 1) return undefined
  const removed = start - 1 + previouslyRemoved(head)
  const marker = markerBlock(
    SNIP_MARKER,
    `${removed} earlier messages of this conversation were removed to keep it within the context window. The first request is kept above and the newest messages follow. ${recoveryHint(transcriptPath)}]`,
  )
  return { messages: [withMarker(head, SNIP_MARKER, marker), ...messages.slice(start)], removed: start - 1 }
}

/** How many messages earlier snips already took out (read back from the head's marker). */
function previouslyRemoved(head: Extract<Message, { role: 'user' }>): number {
  if (typeof head.content === 'string') return 0
  for (const block of head.content) {
    if (block.type === 'text' && block.text.startsWith(SNIP_MARKER)) return Number(/(\d+) earlier/.exec(block.text)?.[1] ?? 0)
  }
  return 0
}
