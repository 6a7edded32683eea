import type { Prepared, RequestShape } from '../../compaction/types'
import type { Message } from '../../services/model/types'
import type { ContextControl, EventBody } from '../types'

/**
 * The prompt-too-long transition: the API refused the request as too long, so the conversation goes
 * to the session's context management once per request (a summary that keeps less, or a collapse
 * aimed well under the window). Without context management, or when nothing smaller can be made,
 * the run ends with `prompt_too_long` and the transcript stays as it was.
 */
export async function* compactAfterOverflow(
  messages: Message[],
  context: ContextControl | undefined,
  alreadyTried: boolean,
  request: RequestShape,
): AsyncGenerator<EventBody, Prepared | undefined> {
  if (!context || alreadyTried) return undefined
  try {
    return yield* context.overflow(messages, request)
  } catch {
    return undefined
  }
}
