import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'

const description = `
Sends a message to an agent you started (by its id, as the Agent tool or a task notification gave it), or, in an agent team, to a teammate by name ("team-lead" is the lead).
- A running agent reads it at its next turn boundary (after the tool calls it is making now).
- An agent that has finished starts again in the background with the message, keeping its whole conversation; you are told when it finishes.
- Use it to correct course, add a requirement, or ask a worker to continue with a follow-up; the agent cannot see your conversation, so say everything it needs.
- Another Sous session on this machine (a name from ListAgents, with its " [ref]" only when a listing or an error shows one): the message arrives there wrapped as <cross-session-message from="...">; to reply to one, copy its from attribute as your to. That session may hold it for its user or refuse it; a [Cross-session delivery notice] tells you when it does. Pass notify_when_idle: true (from the main conversation only) to get exactly one [Cross-session idle notice] when that session next goes idle (or exits); omit message for a pure subscription. Never poll ListAgents or send "are you done?" messages instead.
- Permission boundaries are per-session: never ask another session to do what was denied or blocked in yours.
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
  to: z
    .string()
    .max(300)
    .regex(/^[^\n\r]*$/u, 'must be a single line')
    .describe('Recipient: a name from ListAgents (append its " [ref]" only when a listing or an error shows one), a teammate name, "main", or a background agent\'s agentId'),
  message: z.union([z.string().describe('Plain text message content'), structured]).optional().describe('The message: plain text, or a structured shutdown / plan-approval message. Omit it only for a pure notify_when_idle subscription.'),
  summary: z.string().max(200).optional().describe('A 5-10 word summary of the message, shown to the user'),
  notify_when_idle: z
    .boolean()
    .optional()
    .describe('Ask a session ON THIS MACHINE to send you ONE notice when it next goes idle (finishes its turn with nothing queued) or exits — opt-in, one-shot, no polling. With a message: deliver it now AND subscribe. Without a message (omit it): a pure subscription that costs the other session nothing.'),
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
  summarize: (args) => `To ${args.to}: ${args.summary ?? (typeof args.message === 'string' ? args.message.slice(0, 80) : (args.message?.type ?? 'notify when idle'))}`,
  validate: async (args) => {
    if (args.message === undefined || (typeof args.message === 'string' && args.message.trim() === '')) return args.notify_when_idle ? undefined : 'message must not be empty.'
    return undefined
  },
  async execute(args, ctx) {
    const notify = args.notify_when_idle === true
    if (notify && ctx.agentId !== 'main') return errorResult('notify_when_idle is only available from the main conversation of this session (not from a subagent or teammate).')
    if (args.message !== undefined && !notify) {
      const viaTeam = await ctx.team?.send(args.to, args.message, args.summary, ctx)
      if (viaTeam) return viaTeam
    }
    if (args.message === undefined || typeof args.message === 'string') {
      // Another session of this machine: a name ListAgents gave (undefined when `to` names none).
      const viaPeers = await ctx.peers?.send(args.to, args.message, notify)
      if (viaPeers) return viaPeers
      if (notify) return errorResult(`notify_when_idle is only supported for sessions on this machine, and "${args.to}" is none running now (ListAgents lists them). Your message was NOT delivered; send it again without notify_when_idle if it should still go to an agent of this session.`)
    }
    if (args.message === undefined) return errorResult('message must not be empty.')
    if (typeof args.message !== 'string') return errorResult(`A ${args.message.type} goes to a member of your team, and "${args.to}" is none.`)
    if (!ctx.agents) return errorResult('There are no agents to message in this session.')
    return ctx.agents.send(args.to, args.message, ctx)
  },
})
