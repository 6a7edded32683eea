import { z } from 'zod'
import { Id } from './common'

/** `plan.*`: the plan file of a session (ExitPlanMode saves it where Claude Code keeps plans). */
export const planRequests = {
  /** The session's plan file, for the read-only viewer; NOT_FOUND before the agent saved one. */
  'plan.read': {
    input: z.object({ sessionId: Id }).strict(),
    output: z.object({ path: z.string(), text: z.string(), truncated: z.boolean() }),
  },
} as const
