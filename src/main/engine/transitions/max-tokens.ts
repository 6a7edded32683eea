import type { AssistantBlock, Message } from '../../services/model/types'

/** Continuations after a reply was cut by the output limit, before the run gives up. */
export const MAX_CONTINUATIONS = 3

/** What to do after a reply stopped at `max_tokens`. */
export type MaxTokensStep =
  /** Keep the partial reply and ask the model to go on. */
  | { kind: 'continue'; append: Message[] }
  /** Keep the partial reply and end the run with `max_tokens`. */
  | { kind: 'stop'; append: Message[] }

/** The nudge Claude Code sends after a truncated reply (short, no recap). */
export const CONTINUATION_NUDGE =
  'Output token limit hit. Resume directly where you left off, without apology or recap. ' +
  'Break the remaining work into smaller pieces.'

/**
 * The max_tokens transition, as Claude Code does it: every request already asks for the model's
 * ceiling, so a reply cut there is kept (nothing is generated twice) and up to
 * {@link MAX_CONTINUATIONS} continuation nudges ask the model to go on; then the run stops. A
 * cut-off reply never keeps its tool_use blocks (the last one may be half written) nor unsigned
 * thinking.
 */
export function maxTokensStep(content: AssistantBlock[], state: { continuations: number }): MaxTokensStep {
  const kept = keepPartial(content)
  if (state.continuations >= MAX_CONTINUATIONS) return { kind: 'stop', append: [kept] }
  return { kind: 'continue', append: [kept, { role: 'user', content: [{ type: 'text', text: CONTINUATION_NUDGE }] }] }
}

function keepPartial(content: AssistantBlock[]): Message {
  const kept = content.filter(
    (block) =>
      (block.type === 'text' && block.text.length > 0) ||
      (block.type === 'thinking' && block.signature.length > 0) ||
      block.type === 'redacted_thinking',
  )
  // The API rejects an assistant message without visible content.
  if (!kept.some((block) => block.type === 'text')) kept.push({ type: 'text', text: '(output cut off at the token limit)' })
  return { role: 'assistant', content: kept }
}
