import type { Message } from '../../services/model/types'
import type { QueryHooks } from '../types'

/**
 * The Stop-hook transition: when the model is done, a Stop hook may block the stop with a reason,
 * which goes back to the model as a user message for one more round. Never twice in a row, so a
 * hook that always blocks cannot loop forever. A hook that throws lets the run stop, and says why
 * (`error`). The hook is told the model's last reply (`last_assistant_message`).
 */
export async function stopHookRound(
  hooks: QueryHooks | undefined,
  forcedLastRound: boolean,
  lastAssistantMessage: string,
): Promise<{ feedback?: Message; error?: string }> {
  if (!hooks?.onStop || forcedLastRound) return {}
  let reason: string | undefined
  try {
    reason = (await hooks.onStop({ lastAssistantMessage })).blockReason
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
  if (!reason) return {}
  return { feedback: { role: 'user', content: [{ type: 'text', text: `Stop hook feedback:\n${reason}` }] } }
}
