import { z } from 'zod'
import { EffortLevel } from '../../shared/ipc/effort'
import { agentToolDescription, type AgentTypeLine } from './agent.prompt'
import { defineTool, errorResult } from './define-tool'
import type { AnyTool } from './types'

export type { AgentTypeLine } from './agent.prompt'

/** Claude Code 2.1.328's words, when agents run in the background unless told otherwise. */
const BACKGROUND_BY_DEFAULT =
  'Agents run in the background by default; you will be notified when one completes. Set to false only when your very next action depends on this agent\'s result and nothing else could usefully happen while it runs — otherwise leave it in the background so the user can hand you other work.'

const inputOf = (backgroundByDefault: boolean) => z.strictObject({
  description: z.string().describe('A short (3-5 word) description of the task'),
  prompt: z.string().describe('The task for the agent to perform'),
  subagent_type: z.string().optional().describe('The type of specialized agent to use for this task'),
  model: z
    .enum(['sonnet', 'opus', 'haiku'])
    .optional()
    .describe('Optional model to use for this agent. If not specified, inherits from the agent definition or from you. Ignored for "fork".'),
  effort: z
    .enum(EffortLevel.options)
    .optional()
    .describe(
      'Reasoning effort for this agent. Set this ONLY when the user, or instructions such as CLAUDE.md or a skill, explicitly ask that this agent or delegated work run at a specific effort level, never on your own judgment; otherwise omit it and the agent runs at its usual effort. Ignored for subagent_type: "fork": a fork runs at your own effort.',
    ),
  run_in_background: z.boolean().optional().describe(backgroundByDefault ? BACKGROUND_BY_DEFAULT : 'Set to true to run this agent in the background. You will be notified when it completes.'),
  name: z.string().optional().describe('Name for the spawned agent. With a team (TeamCreate), it joins the team as a teammate under this name and is addressable via SendMessage({to: name}).'),
  team_name: z.string().optional().describe('The team it joins; the team you lead when omitted.'),
  isolation: z
    .enum(['worktree', 'remote'])
    .optional()
    .describe('Isolation mode. "worktree" creates a temporary git worktree so the agent works on an isolated copy of the repo. "remote" launches the agent in a remote cloud environment (always runs in background; availability is gated).'),
})

/**
 * Agent (Claude Code's name and schema): starts a subagent — the same loop with a fresh
 * conversation, its own system prompt and a filtered tool set — and returns only its final text.
 * The work is done by the session's subagents (`ToolContext.agents`, see agents/); the call itself
 * changes nothing outside Sous, so it is bookkeeping: each of the subagent's own calls is judged
 * by the permission gate, and `Agent(type)` deny and ask rules still apply to the call.
 * Concurrency-safe, so several agents in one message run side by side.
 */
export function createAgentTool(types: readonly AgentTypeLine[], options: { fork: boolean; backgroundByDefault?: boolean }): AnyTool {
  const input = inputOf(options.backgroundByDefault === true)
  return defineTool({
    name: 'Agent',
    label: 'Agent',
    description: agentToolDescription(types, options),
    input,
    isReadOnly: () => true,
    isDestructive: () => false,
    isConcurrencySafe: () => true,
    isBookkeeping: () => true,
    summarize: (args) => `${args.subagent_type ?? 'general-purpose'}: ${args.description}`,
    validate: async (args) => {
      if (args.description.trim() === '') return 'description must not be empty: give the task in 3-5 words.'
      if (args.prompt.trim() === '') return 'prompt must not be empty: say what the agent should do and report.'
      if (args.isolation === 'remote') return 'isolation: "remote" is not available in Sous; use isolation: "worktree" for an isolated copy of the repository.'
      return undefined
    },
    async execute(args, ctx) {
      if (ctx.team?.spawns(args)) return ctx.team.spawn(args, ctx)
      if (!ctx.agents) return errorResult('Subagents are not available in this session.')
      return ctx.agents.run(args, ctx)
    },
    // A stopped foreground agent's result comes after its agent_end: the turn never ends before it.
    settlesOnAbort: true,
    // The agent's final text is what the model asked for; the subagent's own results were budgeted.
    maxResultChars: 100_000,
  })
}
