import { z } from 'zod'

/** The fields every agent event carries: whose session, which agent, and for a subagent the Agent call that started it. */
export const eventBase = {
  sessionId: z.string(),
  agentId: z.string(),
  parentToolUseId: z.string().optional(),
}
