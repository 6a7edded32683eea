import { z } from 'zod'
import { defineTool, errorResult } from './define-tool'
import { SKILL_DESCRIPTION } from './skill.prompt'

/** A forked skill's subagent type when it names none (Claude Code's default; agents/definitions' DEFAULT_AGENT_TYPE, tools sit below agents). */
export const SKILL_AGENT = 'general-purpose'

/**
 * Skill {skill, args?} (Claude Code's name and schema): loads a skill's instructions into the
 * conversation on demand. Only names and descriptions sit in the system prompt; the body costs
 * tokens only when used. Read-only for permissions: loading reads the skill's own files, and any
 * command the skill injects goes through the permission check on its own. A skill marked
 * `context: fork` runs as a subagent instead (each of its calls judged on its own); a skill's
 * `model` is its subagent's model, or, inline, the model for the rest of the turn.
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
    if (loaded.fork) {
      if (!ctx.agents) return errorResult(`The skill "${loaded.name}" runs as a subagent, and subagents are not available here.`)
      // `context: fork` (Claude Code's): the body is the prompt of a subagent of the skill's `agent`
      // type with a conversation of its own; only its final text comes back, as an Agent call's would.
      const call = { description: `Skill ${loaded.name}`, prompt: loaded.text, subagent_type: loaded.fork.agent ?? SKILL_AGENT, ...(loaded.fork.model && { model: loaded.fork.model }) }
      const result = await ctx.agents.run(call, ctx, { grants: loaded.fork.grants })
      return { ...result, details: { ...details, ...(typeof result.details === 'object' && result.details) } }
    }
    // `model` (Claude Code's): the rest of this turn runs on it; the session's model resumes at the next prompt.
    if (loaded.model) ctx.useModel?.(loaded.model)
    if (loaded.alreadyLoaded) return { content: `The skill "${loaded.name}" is already loaded in this conversation; follow its instructions above.`, details }
    return { content: `<skill name="${loaded.name}" file="${loaded.file}">\n${loaded.text}\n</skill>`, details }
  },
})
