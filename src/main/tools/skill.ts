import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import { SKILL_DESCRIPTION } from './skill.prompt'

/** The Agent tool's `subagent_type` of a fork (agents/definitions' FORK_AGENT_TYPE; tools sit below agents). */
const FORK = 'fork'

/**
 * Skill {skill, args?} (Claude Code's name and schema): loads a skill's instructions into the
 * conversation on demand. Only names and descriptions sit in the system prompt; the body costs
 * tokens only when used. Read-only for permissions: loading reads the skill's own files, and any
 * command the skill injects goes through the permission check on its own. A skill marked
 * `context: fork` runs as a subagent instead (each of its calls judged on its own).
 */
export const skillTool = defineTool({
  name: 'Skill',
  label: 'Skill',
  description: SKILL_DESCRIPTION,
  input: z.strictObject({
    skill: z.string().min(1).describe('The skill name, e.g. "pdf" or "deploy"'),
    args: z.string().optional().describe('Optional arguments for the skill'),
  }),
  isReadOnly: () => true,
  isDestructive: () => false,
  summarize: (input) => `${input.skill}${input.args ? ` ${input.args}` : ''}`,
  async execute(input, ctx) {
    if (!ctx.skills) return errorResult('Skills are not available in this session.')
    const loaded = await ctx.skills.load(input.skill, input.args ?? '', ctx.signal)
    if (!loaded.ok) return errorResult(loaded.error)
    const details = { skill: loaded.name, file: loaded.file }
    if (loaded.fork && ctx.agents) {
      // `context: fork` (Claude Code's): the body is a subagent's prompt — a fork of this agent, or
      // the `agent` type — and only that subagent's final text comes back, as an Agent call's would.
      const result = await ctx.agents.run({ description: `Skill ${loaded.name}`, prompt: loaded.text, subagent_type: loaded.agent ?? FORK }, ctx)
      return { ...result, details: { ...details, ...(typeof result.details === 'object' && result.details) } }
    }
    if (loaded.alreadyLoaded) return { content: `The skill "${loaded.name}" is already loaded in this conversation; follow its instructions above.`, details }
    return { content: `<skill name="${loaded.name}" file="${loaded.file}">\n${loaded.text}\n</skill>`, details }
  },
})
