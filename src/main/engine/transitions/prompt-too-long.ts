import type { Message } from '../../services/model/types'
import type { Compactor } from '../types'

/**
 * The prompt-too-long transition: hand the conversation to the compactor once per request; when
 * there is none, or it could not shrink it, the run ends with `prompt_too_long` and the transcript
 * stays as it was.
 */
export async function compactAfterOverflow(
  messages: Message[],
  compact: Compactor | undefined,
  alreadyTried: boolean,
): Promise<Message[] | undefined> {
  if (!compact || alreadyTried) return undefined
  try {
    const shorter = await compact(messages)
    return shorter && shorter.length > 0 ? shorter : undefined
  } catch {
    return undefined
  }
}
