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

/** What the user reads when a request stays too long: what happened, and that nothing was lost. */
export function tooLong(apiMessage: string, compacted: boolean): string {
  const tried = compacted ? ' even after compaction' : ''
  return `The conversation is too long for the model's context window${tried} (${apiMessage}). Nothing was lost: the whole conversation is in the session transcript. Run /compact with instructions about what to keep, or start a new conversation.`
}
