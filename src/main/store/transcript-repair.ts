import type { Message, ToolResultBlock, UserBlock } from '../services/model/types'

/** The text a synthesized tool_result carries after a crash cut the turn. */
export const INTERRUPTED_RESULT = 'Tool call not executed because the session ended before it finished.'

/**
 * Makes a loaded conversation valid for the API again after a crash mid-turn: every tool_use gets
 * a tool_result at the start of the next user message (synthesized when missing), tool_results
 * that answer nothing are dropped, and empty messages are removed. Returns the same array when
 * nothing needed repair.
 */
export function repairMessages(messages: readonly Message[]): { messages: Message[]; repaired: boolean } {
  const out: Message[] = []
  let repaired = false
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!
    if (isEmpty(message)) {
      repaired = true
      continue
    }
    if (message.role === 'user') {
      // Results are valid only right after the assistant message that asked for them.
      const previous = out.at(-1)
      const asked = previous?.role === 'assistant' ? toolUseIds(previous) : new Set<string>()
      const fixed = keepAnswering(message, asked)
      if (fixed !== message) repaired = true
      if (!isEmpty(fixed)) out.push(fixed)
      continue
    }
    out.push(message)
    const ids = toolUseIds(message)
    if (ids.size === 0) continue
    const next = messages[index + 1]
    const answered = next?.role === 'user' ? resultIds(next) : new Set<string>()
    const missing = [...ids].filter((id) => !answered.has(id))
    if (missing.length === 0) continue
    repaired = true
    const synthesized: ToolResultBlock[] = missing.map((id) => ({ type: 'tool_result', tool_use_id: id, content: INTERRUPTED_RESULT, is_error: true }))
    if (next?.role === 'user') {
      const blocks = typeof next.content === 'string' ? [{ type: 'text' as const, text: next.content }] : next.content
      const results = blocks.filter((block) => block.type === 'tool_result')
      const rest = blocks.filter((block) => block.type !== 'tool_result')
      out.push({ role: 'user', content: [...results, ...synthesized, ...rest] })
      index++
      const last = out.at(-1)!
      const fixed = keepAnswering(last, ids)
      out[out.length - 1] = fixed
    } else {
      out.push({ role: 'user', content: synthesized })
    }
  }
  return repaired ? { messages: out, repaired } : { messages: [...messages], repaired }
}

function toolUseIds(message: Message): Set<string> {
  if (message.role !== 'assistant') return new Set()
  return new Set(message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])))
}

function resultIds(message: Message): Set<string> {
  if (message.role !== 'user' || typeof message.content === 'string') return new Set()
  return new Set(message.content.flatMap((block) => (block.type === 'tool_result' ? [block.tool_use_id] : [])))
}

/** Drops tool_results that do not answer a tool_use of the previous assistant message. */
function keepAnswering(message: Message, asked: Set<string>): Message {
  if (message.role !== 'user' || typeof message.content === 'string') return message
  const kept: UserBlock[] = message.content.filter((block) => block.type !== 'tool_result' || asked.has(block.tool_use_id))
  return kept.length === message.content.length ? message : { role: 'user', content: kept }
}

function isEmpty(message: Message): boolean {
  return typeof message.content === 'string' ? message.content.length === 0 : message.content.length === 0
}
