import type { Message } from '../../services/model/types'
import type { QueryHooks } from '../types'

/**
 * The Stop-hook transition: when the model is done, a Stop hook may block the stop with a reason,
 * which goes back to the model as a user message for one more round. Never twice in a row, so a
 * hook that always blocks cannot loop forever.
 */
export async function stopHookRound(hooks: QueryHooks | undefined, forcedLastRound: boolean, lastAssistantMessage: string): Promise<Message | undefined> {
  if (!hooks?.onStop || forcedLastRound) return undefined
  let reason: string | undefined
  try {
    reason = (await hooks.onStop({ lastAssistantMessage })).blockReason
  } catch {
    return undefined
  }
  if (!reason) return undefined
  return { role: 'user', content: [{ type: 'text', text: `Stop hook feedback:\n${reason}` }] }
}
