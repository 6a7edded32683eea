import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'

const description = `
Sends a message to an agent you started (by its id, as the Agent tool or a task notification gave it), or, in an agent team, to a teammate by name ("team-lead" is the lead).
- A running agent reads it at its next turn boundary (after the tool calls it is making now).
- An agent that has finished starts again in the background with the message, keeping its whole conversation; you are told when it finishes.
- Use it to correct course, add a requirement, or ask a worker to continue with a follow-up; the agent cannot see your conversation, so say everything it needs.
- In a team: plain text you write is not visible to the others; this is the way to talk to them. To end a teammate, send message {type: "shutdown_request", reason}; a teammate answers with {type: "shutdown_response", request_id, approve}. The lead answers a plan approval request with {type: "plan_approval_response", request_id, approve, feedback}.
`

const requestId = z.string().min(1, 'must be the request id being responded to').regex(/^[^\n\r]*$/u, 'must be a single-line request id')

/** The structured messages Claude Code 2.1.328's SendMessage carries. */
const structured = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('shutdown_request'), reason: z.string().optional() }),
  z.strictObject({ type: z.literal('shutdown_response'), request_id: requestId, approve: z.boolean(), reason: z.string().optional() }),
  z.strictObject({ type: z.literal('plan_approval_response'), request_id: requestId, approve: z.boolean(), feedback: z.string().optional() }),
])

const input = z.strictObject({
  to: z.string().describe('Recipient: a background agent\'s name or agentId, a teammate name, or "team-lead"'),
  message: z.union([z.string().describe('Plain text message content'), structured]).describe('The message: plain text, or a structured shutdown / plan-approval message'),
  summary: z.string().max(200).optional().describe('A 5-10 word summary of the message, shown to the user'),
})

/** SendMessage (Claude Code's schema): a message into a worker's conversation (see agents/), or a teammate's mailbox (agents/team). */
export const sendMessageTool = defineTool({
  name: 'SendMessage',
  label: 'Send message',
  description,
  input,
  isDestructive: () => false,
  // It talks only to agents of this session; what they then do is judged call by call.
  isBookkeeping: () => true,
  summarize: (args) => `To ${args.to}: ${args.summary ?? (typeof args.message === 'string' ? args.message.slice(0, 80) : args.message.type)}`,
  validate: async (args) => (typeof args.message === 'string' && args.message.trim() === '' ? 'message must not be empty.' : undefined),
  async execute(args, ctx) {
    const viaTeam = await ctx.team?.send(args.to, args.message, args.summary, ctx)
    if (viaTeam) return viaTeam
    if (typeof args.message !== 'string') return errorResult(`A ${args.message.type} goes to a member of your team, and "${args.to}" is none.`)
    if (!ctx.agents) return errorResult('There are no agents to message in this session.')
    return ctx.agents.send(args.to, args.message, ctx)
  },
})
