import type { Message, ToolResultBlock } from '../services/model/types'
import type { CallOrigin } from '../tools/types'
import { FORK_PLACEHOLDER, FORK_TAG, forkDirective } from './fork.prompt'

/**
 * A fork: a subagent that starts from its parent's conversation instead of a blank one. Its first
 * request is the parent's last request byte for byte (same system blocks, same tools in the same
 * order, same messages), then the parent's reply, then one user message: a placeholder result for
 * each tool call of that reply and the directive. The parent's last breakpoint sits on the last
 * block of its last user message, and `withMessageBreakpoints` puts the fork's second breakpoint on
 * exactly that block, so the whole prefix is read from the prompt cache. Forks of the same reply
 * differ only in the directive. Reusable beyond the Agent tool (the memory extractor): give it a
 * {@link CallOrigin} and run the result with `runSubagent`. (Skills with `context: fork` are not
 * forks in this sense: Claude Code runs them in a conversation of their own; see tools/skill.)
 */

/** The conversation a fork starts from. */
export function forkMessages(origin: CallOrigin, directive: string): Message[] {
  const results: ToolResultBlock[] = origin.reply.flatMap((block) => (block.type === 'tool_use' ? [{ type: 'tool_result' as const, tool_use_id: block.id, content: FORK_PLACEHOLDER }] : []))
  return [
    ...origin.messages,
    { role: 'assistant', content: origin.reply },
    { role: 'user', content: [...results, { type: 'text', text: forkDirective(directive) }] },
  ]
}

/**
 * Whether a conversation is a fork's (its first directive message is there). The hard recursion
 * guard checks the agent's record first; this catches a fork's conversation however it was started.
 */
export function isForkConversation(messages: readonly Message[]): boolean {
  return messages.some(
    (message) => message.role === 'user' && typeof message.content !== 'string' && message.content.some((block) => block.type === 'text' && block.text.startsWith(FORK_TAG)),
  )
}
