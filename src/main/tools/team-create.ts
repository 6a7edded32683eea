import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'

const description = `
Creates an agent team that you lead: long-lived teammates, each a full agent with its own context, name and colour, who talk through mailboxes.
- After creating the team, start each teammate with the Agent tool and a \`name\` (e.g. Agent({description, prompt, subagent_type, name: "researcher"})). It joins the team and works in the background.
- Talk to teammates with SendMessage({to: "<name>", message}). Their messages to you arrive as [Inbox] reminders; a teammate that finishes a turn sends you an idle notification.
- Teammates share this session's task list: idle teammates claim unowned, unblocked tasks themselves, so create tasks with TaskCreate for work they can pick up.
- A teammate's permission asks come to you and from you to the user; no teammate answers another's.
- When the work is done, ask each teammate to shut down (SendMessage with message {type: "shutdown_request"}), then remove the team with TeamDelete.
- You lead one team at a time.
`

const input = z.strictObject({
  team_name: z.string().describe('Name for the new team to create.'),
  description: z.string().optional().describe('Team description/purpose.'),
  agent_type: z.string().optional().describe('Type/role of the team lead (e.g. "researcher", "test-runner"). Used for team file and inter-agent coordination.'),
})

/** TeamCreate (Claude Code's name and schema): the session's main agent starts leading a team (see agents/team). */
export const teamCreateTool = defineTool({
  name: 'TeamCreate',
  label: 'Create team',
  description,
  input,
  isDestructive: () => false,
  // It writes Sous's and Claude Code's own team records only; each teammate's calls are judged one by one.
  isBookkeeping: () => true,
  summarize: (args) => `Team ${args.team_name}`,
  validate: async (args) => (args.team_name.trim() === '' ? 'team_name must not be empty.' : undefined),
  async execute(args, ctx) {
    if (!ctx.team) return errorResult('Agent teams are not available in this session.')
    return ctx.team.create(args, ctx)
  },
})
