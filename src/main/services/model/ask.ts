import type { Usage } from '../../../shared/protocol/agent-event'
import type { ModelService } from './types'

/** The small, fast model used for side questions (WebFetch's prompt over a page, memory recall). */
export const SMALL_FAST_MODEL = 'claude-haiku-4-5'

/** One side question to a model. */
export interface AskRequest {
  model: string
  system: string
  user: string
  maxTokens: number
  signal: AbortSignal
}

/** Its answer, with what it cost (side questions count in the session's usage). */
export interface AskAnswer {
  text: string
  model: string
  usage: Usage
  costUsd: number
}

/**
 * Asks a model one question, without a conversation or tools. Contract: resolves with the reply's
 * text and usage; rejects with a readable message when the model fails.
 */
export async function askOnce(service: ModelService, request: AskRequest): Promise<AskAnswer> {
  for await (const event of service.stream({
    model: request.model,
    system: [{ type: 'text', text: request.system }],
    messages: [{ role: 'user', content: request.user }],
    tools: [],
    maxTokens: request.maxTokens,
    signal: request.signal,
  })) {
    if (event.type === 'error') throw new Error(`The model could not answer (${event.reason}): ${event.message}`)
    if (event.type === 'message_end') {
      const text = event.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('')
      return { text, model: event.model, usage: event.usage, costUsd: event.costUsd }
    }
  }
  throw new Error('The model stream ended without a reply.')
}

/**
 * Builds a one-shot "answer this" function over the model service, for tools that need a model
 * without a conversation. Contract: resolves with the reply text; rejects with a readable message
 * when the model fails (the tool turns that into an error result).
 */
export function createAskModel(
  service: ModelService,
  model: string = SMALL_FAST_MODEL,
  maxTokens = 4096,
): (system: string, user: string, signal: AbortSignal) => Promise<string> {
  return async (system, user, signal) => (await askOnce(service, { model, system, user, maxTokens, signal })).text
}
