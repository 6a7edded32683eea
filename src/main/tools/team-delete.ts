import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'

const description = `
Removes the team you lead: its config and mailboxes. It fails while any teammate is still active: ask each to shut down first (SendMessage with message {type: "shutdown_request"}) and wait for their approval.
`

/** TeamDelete (Claude Code's name and schema: no input): ends the session's team (see agents/team). */
export const teamDeleteTool = defineTool({
  name: 'TeamDelete',
  label: 'Delete team',
  description,
  input: z.strictObject({}),
  isDestructive: () => false,
  isBookkeeping: () => true,
  summarize: () => 'Delete the team',
  async execute(_args, ctx) {
    if (!ctx.team) return errorResult('Agent teams are not available in this session.')
    return ctx.team.delete(ctx)
  },
})
