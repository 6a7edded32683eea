import type { Message, ModelRequest } from '../services/model/types'
import type { CallOrigin } from '../tools/types'

/**
 * What a fork copies of a request (see agents/fork): the same system blocks, tools, model and
 * limits, and the messages as they were sent (after the context layers), without the moving cache
 * breakpoints. The reply is added once it is complete.
 */
export function callOrigin(request: ModelRequest, sent: readonly Message[]): Omit<CallOrigin, 'reply'> {
  const origin: Omit<CallOrigin, 'reply'> = { system: request.system, tools: request.tools, messages: [...sent], model: request.model, maxTokens: request.maxTokens }
  if (request.thinking) origin.thinking = request.thinking
  if (request.effort) origin.effort = request.effort
  return origin
}
