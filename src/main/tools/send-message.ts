import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'

const description = `
Sends a message to an agent you started (by its id, as the Agent tool or a task notification gave it).
- A running agent reads it at its next turn boundary (after the tool calls it is making now).
- An agent that has finished starts again in the background with the message, keeping its whole conversation; you are told when it finishes.
- Use it to correct course, add a requirement, or ask a worker to continue with a follow-up; the agent cannot see your conversation, so say everything it needs.
`

const input = z.strictObject({
  to: z.string().describe('The id of the agent to send the message to'),
  message: z.string().describe('The message for the agent'),
  summary: z.string().max(200).optional().describe('A 5-10 word summary of the message, shown to the user'),
})

/** SendMessage (Claude Code's schema): a message into a worker's conversation (see agents/). */
export const sendMessageTool = defineTool({
  name: 'SendMessage',
  label: 'Send message',
  description,
  input,
  isDestructive: () => false,
  // It talks only to agents of this session; what they then do is judged call by call.
  isBookkeeping: () => true,
  summarize: (args) => `To ${args.to}: ${args.summary ?? args.message.slice(0, 80)}`,
  validate: async (args) => (args.message.trim() === '' ? 'message must not be empty.' : undefined),
  async execute(args, ctx) {
    if (!ctx.agents) return errorResult('There are no agents to message in this session.')
    return ctx.agents.send(args.to, args.message, ctx)
  },
})
