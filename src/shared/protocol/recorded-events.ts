import { z } from 'zod'
import { eventBase as base } from './event-base'

/**
 * Events a transcript records that the live feed carries on channels of their own: a hook that
 * ran (live: `hooks.ran`) and an approval the user answered (live: `approval.requested` /
 * `approval.resolved`). The session writes them to its transcript only (`SessionHandle.record`),
 * never on `agent.event`, so a live view hears each once; a stored session's history carries them,
 * so its timeline and replay show the hooks and approvals it had. Older Sous builds skip the lines
 * (an unknown event is a skipped line, never a failed load).
 */

/** How an approval was answered, as `approval.resolved` says it. */
export const RecordedApprovalOutcome = z.enum(['allowed_once', 'allowed_session', 'allowed_always', 'rejected', 'aborted'])

/** A hook ran: what the timeline needs of `HookRunInfo` (its stdin and output stay in the hook log). */
export const HookRunEvent = z.object({
  ...base,
  type: z.literal('hook_run'),
  event: z.string(),
  matcher: z.string().optional(),
  command: z.string(),
  exitCode: z.number().nullable(),
  durationMs: z.number(),
  timedOut: z.boolean(),
  error: z.string().optional(),
  /** The call a tool event's hook was about (its stdin's `tool_use_id`; not `toolUseId`, which names an event's own call). */
  aboutToolUseId: z.string().optional(),
  /** Wall-clock time in ms since the epoch. */
  at: z.number(),
})

/** The user answered an approval (or it was cancelled with the turn). */
export const ApprovalAnsweredEvent = z.object({
  ...base,
  type: z.literal('approval_answered'),
  approvalId: z.string(),
  toolUseId: z.string(),
  toolName: z.string(),
  outcome: RecordedApprovalOutcome,
  /** Why it asked (the explanation line the card showed). */
  explanation: z.string().optional(),
})
