import type { Usage } from '../../shared/protocol/agent-event'
import { withMessageBreakpoints } from '../context/cache-breakpoints'
import type { Message, ModelService, TextBlock, ToolSchema } from '../services/model/types'
import { mergeConsecutiveUsers, userBlocks } from './conversation'
import { SUMMARY_PROMPT, withInstructions } from './summary.prompt'

/** What the summary request needs: the session's own model, system prompt and tools, so it shares their cache. */
export interface SummaryRequest {
  model: ModelService
  modelName: string
  system: TextBlock[]
  tools: ToolSchema[]
  /** The conversation to summarize, as the session would send it. */
  messages: readonly Message[]
  instructions?: string
  maxTokens: number
  /** Re-issues when the stream breaks. */
  streamRetries: number
  signal: AbortSignal
}

/** How the summary request ended. */
export type SummaryOutcome =
  | { ok: true; summary: string; usage: Usage; ms: number }
  | { ok: false; reason: 'prompt_too_long' | 'failed' | 'aborted'; message: string; ms: number }

/**
 * Asks the model for a summary of the conversation. The request is the conversation itself with
 * the instructions appended as one more user turn, the session's system prompt and tools (sent
 * with `tool_choice: none`, so the model cannot call them, and the prompt prefix the session
 * already cached is read back instead of paid again), at most `maxTokens` of output.
 *
 * Contract: never throws. A stream that breaks is re-issued up to `streamRetries` times; a reply
 * without usable text, or cut at the output limit, is a failure.
 */
export async function requestSummary(request: SummaryRequest): Promise<SummaryOutcome> {
  const started = performance.now()
  const ms = () => Math.round(performance.now() - started)
  const messages = withMessageBreakpoints(mergeConsecutiveUsers(withSummaryInstructions(request.messages, withInstructions(SUMMARY_PROMPT, request.instructions))))
  let lastError = 'the summary request failed'
  for (let attempt = 0; attempt <= request.streamRetries; attempt++) {
    if (request.signal.aborted) return { ok: false, reason: 'aborted', message: 'Interrupted by the user.', ms: ms() }
    const stream = request.model.stream({
      model: request.modelName,
      system: request.system,
      tools: request.tools,
      toolChoice: 'none',
      messages,
      maxTokens: request.maxTokens,
      signal: request.signal,
    })
    for await (const event of stream) {
      if (event.type === 'error') {
        if (event.reason === 'aborted') return { ok: false, reason: 'aborted', message: 'Interrupted by the user.', ms: ms() }
        if (event.reason === 'prompt_too_long') return { ok: false, reason: 'prompt_too_long', message: event.message, ms: ms() }
        lastError = event.message
        // The model service already retried what fails before streaming; a broken stream is ours to re-issue.
        if (!event.midStream && event.reason !== 'connection' && event.reason !== 'unknown') return { ok: false, reason: 'failed', message: event.message, ms: ms() }
        break
      }
      if (event.type !== 'message_end') continue
      if (event.stopReason === 'max_tokens') return { ok: false, reason: 'failed', message: 'the summary was cut off at its output limit', ms: ms() }
      const summary = extractSummary(event.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''))
      if (!summary) return { ok: false, reason: 'failed', message: 'the model replied without a summary', ms: ms() }
      return { ok: true, summary, usage: event.usage, ms: ms() }
    }
  }
  return { ok: false, reason: 'failed', message: lastError, ms: ms() }
}

/** The conversation with the summary instructions as the last user turn (after any tool results). */
export function withSummaryInstructions(messages: readonly Message[], prompt: string): Message[] {
  const last = messages.at(-1)
  const instruction: TextBlock = { type: 'text', text: prompt }
  if (last?.role === 'user') return [...messages.slice(0, -1), { role: 'user', content: [...userBlocks(last), instruction] }]
  return [...messages, { role: 'user', content: [instruction] }]
}

/** The text inside `<summary>` (or the whole reply without its `<analysis>`); empty when there is none. */
export function extractSummary(text: string): string {
  const tagged = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(text)
  const body = tagged ? tagged[1]! : text.replace(/<analysis>[\s\S]*?(?:<\/analysis>|$)/g, '')
  return body.trim()
}
