import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { AssistantBlock, Message } from '../services/model/types'
import type { EventBody } from './types'

/** Stamps an event body with the identity of the agent that produced it. */
export function stamp(
  body: EventBody,
  identity: { sessionId: string; agentId: string; parentToolUseId?: string },
): AgentEvent {
  const event = { ...body, sessionId: identity.sessionId, agentId: identity.agentId } as AgentEvent
  if (identity.parentToolUseId !== undefined) event.parentToolUseId = identity.parentToolUseId
  return event
}

/** Longest text a `tool_end` event carries; the model may have received more. */
export const TOOL_END_PREVIEW_CHARS = 10_000

/** Caps a text for an event, saying how much was left out. */
export function preview(text: string, max = TOOL_END_PREVIEW_CHARS): string {
  if (text.length <= max) return text
  return `${text.slice(0, max)}\n… (${text.length - max} more characters)`
}

/** The event of a finished reply: its text, and its thinking text when there is some (a replay shows that folded, as live). */
export function assistantMessage(content: readonly AssistantBlock[], stopReason: string | null): EventBody {
  const text = textOf(content)
  const thinking = content.flatMap((block) => (block.type === 'thinking' && block.thinking ? [block.thinking] : [])).join('\n\n')
  return { type: 'assistant_message', text, stopReason, ...(thinking && { thinking }) }
}

/** The text of the conversation's last assistant message (the run's result text; what Stop hooks see). */
export function lastText(messages: readonly Message[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!
    if (message.role === 'assistant') return textOf(message.content)
  }
  return ''
}

/** A reply's text blocks, joined. */
function textOf(content: readonly AssistantBlock[]): string {
  return content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
}
