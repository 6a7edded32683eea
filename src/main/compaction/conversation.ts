import type { Message, TextBlock, ToolResultBlock, UserBlock } from '../services/model/types'

/**
 * Facts about a conversation's shape that every layer needs: where it can be cut without
 * separating a tool_use from its tool_result, which tool answered which result, and small
 * builders for the markers the layers leave. Pure functions over messages; nothing is mutated.
 */

/** Whether a user message carries tool results (it must stay right after the assistant message that asked). */
export function hasToolResults(message: Message): boolean {
  return message.role === 'user' && typeof message.content !== 'string' && message.content.some((block) => block.type === 'tool_result')
}

/**
 * Whether the conversation may be cut before `index`: the part before ends with no tool_use
 * waiting for a result, the part after starts with no result for a call it does not hold.
 */
export function isSafeCut(messages: readonly Message[], index: number): boolean {
  if (index <= 0 || index >= messages.length) return index === messages.length
  return !hasToolResults(messages[index]!)
}

/** The earliest index ≥ `from` that starts an assistant message at a safe cut; `undefined` when none. */
export function assistantCutAtOrAfter(messages: readonly Message[], from: number): number | undefined {
  for (let index = Math.max(1, from); index < messages.length; index++) {
    if (messages[index]!.role === 'assistant' && isSafeCut(messages, index)) return index
  }
  return undefined
}

/** The latest index ≤ `from` that starts an assistant message at a safe cut; `undefined` when none. */
export function assistantCutAtOrBefore(messages: readonly Message[], from: number): number | undefined {
  for (let index = Math.min(from, messages.length - 1); index >= 1; index--) {
    if (messages[index]!.role === 'assistant' && isSafeCut(messages, index)) return index
  }
  return undefined
}

/** Tool name of every tool_use id in the conversation. */
export function toolNamesById(messages: readonly Message[]): Map<string, string> {
  const names = new Map<string, string>()
  for (const message of messages) {
    if (message.role !== 'assistant') continue
    for (const block of message.content) if (block.type === 'tool_use') names.set(block.id, block.name)
  }
  return names
}

/** The text of a tool result's content. */
export function resultContentText(content: ToolResultBlock['content']): string {
  if (typeof content === 'string') return content
  return content.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n')
}

/** A user message's content as blocks. */
export function userBlocks(message: Extract<Message, { role: 'user' }>): UserBlock[] {
  return typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content
}

/** A text block that marks what a layer did (a marker is found again by its prefix). */
export function markerBlock(prefix: string, text: string): TextBlock {
  return { type: 'text', text: `${prefix} ${text}` }
}

/** The same user message with the marker that starts with `prefix` replaced by `marker` (or added last). */
export function withMarker(message: Extract<Message, { role: 'user' }>, prefix: string, marker: TextBlock): Extract<Message, { role: 'user' }> {
  const blocks = userBlocks(message).filter((block) => !(block.type === 'text' && block.text.startsWith(prefix)))
  return { role: 'user', content: [...blocks, marker] }
}

/**
 * Consecutive user messages merged into one (a summary followed by the next prompt), so roles
 * alternate as the API expects. Tool results stay first in a merged message. Returns the same
 * array when nothing needed merging; deterministic, so the bytes sent are stable across requests.
 */
export function mergeConsecutiveUsers(messages: readonly Message[]): Message[] {
  let merged: Message[] | undefined
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!
    const previous = merged ? merged.at(-1) : index > 0 ? messages[index - 1] : undefined
    if (message.role === 'user' && previous?.role === 'user' && !hasToolResults(message)) {
      merged ??= messages.slice(0, index)
      merged[merged.length - 1] = { role: 'user', content: [...userBlocks(previous), ...userBlocks(message)] }
      continue
    }
    merged?.push(message)
  }
  return merged ?? (messages as Message[])
}

/**
 * How the model gets back what a layer cut: the transcript keeps every message. Said in every
 * marker and stub, so "the history is gone" never reads as "start over".
 */
export function recoveryHint(transcriptPath?: string): string {
  return transcriptPath
    ? `The full history stays in the session transcript, ${transcriptPath} (one JSON object per line): Grep or Read it to look up what you need.`
    : 'The full history stays in the session transcript.'
}

/** "Read ×3, Bash ×2": counts of names, most frequent first. */
export function countNames(names: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1)
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([name, count]) => (count > 1 ? `${name} ×${count}` : name))
    .join(', ')
}
