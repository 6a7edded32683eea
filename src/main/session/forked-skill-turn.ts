import { randomBytes } from 'node:crypto'
import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { QueryResult } from '../engine/types'
import { emptyResult } from '../engine/run'
import type { Message } from '../services/model/types'
import { resultText } from '../tools/result-text'
import { SKILL_AGENT } from '../tools/skill'
import type { SkillFork, ToolContext } from '../tools/types'

/** What a typed `/name` of a forked skill or command needs from its session. */
export interface ForkedSkillTurnOptions {
  name: string
  args: string
  /** The rendered body: the subagent's prompt. */
  prompt: string
  fork: SkillFork
  /** The session's tool context for the main agent (its `agents` runs the subagent). */
  context: ToolContext
  emit(event: AgentEvent): void
  /** Appends a message to the main conversation (and its transcript). */
  append(message: Message): void
  messages(): Message[]
}

/**
 * `/name` typed for a skill or custom command with `context: fork`, run as the Skill tool runs it:
 * a subagent of its `agent` type (general-purpose when absent) and `model` (the type's, else the
 * session's, when absent) whose prompt is the rendered body, holding its grants. The turn shows it as a Skill call (the subagent nested under it, as for the
 * tool); the main model is not asked. The conversation gets the command and the subagent's final
 * text only (Claude Code's `<command-name>` and `<local-command-stdout>`), so the main agent knows
 * of it at its next turn. This is the turn's body: `Session.turn()` opens it (the line as typed)
 * and closes it with the result. Never rejects: a subagent that fails ends the turn
 * `command_failed`, an interrupted one `aborted`.
 */
export async function forkedSkillTurn(o: ForkedSkillTurnOptions): Promise<QueryResult> {
  const identity = { sessionId: o.context.sessionId, agentId: 'main' }
  const toolUseId = `toolu_command_${randomBytes(8).toString('hex')}`
  o.emit({ ...identity, type: 'tool_use_start', toolUseId, name: 'Skill' })
  const input = { skill: o.name, ...(o.args && { args: o.args }) }
  o.emit({ ...identity, type: 'tool_state', toolUseId, name: 'Skill', state: 'running', input, summary: `${o.name}${o.args ? ` ${o.args}` : ''}` })
  const agents = o.context.agents
  const result = agents
    ? await agents.run({ description: `Skill ${o.name}`, prompt: o.prompt, subagent_type: o.fork.agent ?? SKILL_AGENT, ...(o.fork.model && { model: o.fork.model }) }, { ...o.context, toolUseId }, { grants: o.fork.grants })
    : { content: `/${o.name} runs as a subagent, and subagents are not available here.`, isError: true }
  const text = resultText(result.content)
  const isError = result.isError === true
  o.emit({ ...identity, type: 'tool_end', toolUseId, name: 'Skill', isError, content: text, ...(result.details !== undefined && { details: result.details }) })
  const command = `<command-name>/${o.name}</command-name>${o.args ? `\n<command-args>${o.args}</command-args>` : ''}`
  o.append({ role: 'user', content: [{ type: 'text', text: command }, { type: 'text', text: `<local-command-stdout>\n${text}\n</local-command-stdout>` }] })
  const reason = o.context.signal.aborted ? 'aborted' : isError ? 'command_failed' : 'completed'
  return emptyResult(reason, o.messages(), isError ? { message: text } : { resultText: text })
}
