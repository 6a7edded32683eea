import type { PlanEntry, SessionUpdate } from '@agentclientprotocol/sdk'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import type { TaskItem } from '../../../shared/protocol/task'
import { compareTaskOrder } from '../../../shared/protocol/task'
import { resultContent, toolKind, toolLocations, toolTitle } from './tool-calls'

/**
 * Turns one session's agent events into ACP `session/update`s. Stateful per session: it knows
 * which tool calls the client has been told about (a `tool_call` comes before any update of it)
 * and the task list as a whole (ACP's plan is always sent complete, Sous's `task_update` carries
 * only what changed).
 *
 * Only the main agent's events are carried: ACP has no tree of agents, so a subagent's work shows
 * as its Agent call and that call's result.
 */
export class UpdateMapper {
  private readonly announced = new Set<string>()
  private readonly tasks = new Map<string, TaskItem>()

  /** `replay`: a stored history (its prompts are the user's messages; it has no deltas, so replies come whole). */
  constructor(private readonly replay = false) {}

  /** The updates one event makes (none for most). */
  map(event: AgentEvent): SessionUpdate[] {
    if (event.agentId !== 'main') return []
    switch (event.type) {
      case 'turn_start':
        return this.replay && event.prompt ? [{ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: event.prompt } }] : []
      case 'text_delta':
        return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } }]
      case 'thinking_delta':
        return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } }]
      case 'assistant_message':
        if (!this.replay) return []
        return [
          ...(event.thinking ? [{ sessionUpdate: 'agent_thought_chunk' as const, content: { type: 'text' as const, text: event.thinking } }] : []),
          ...(event.text ? [{ sessionUpdate: 'agent_message_chunk' as const, content: { type: 'text' as const, text: event.text } }] : []),
        ]
      case 'tool_use_start':
        return [this.announce(event.toolUseId, event.name)]
      case 'tool_state': {
        const status = event.state === 'running' ? 'in_progress' : event.state === 'done' ? 'completed' : event.state === 'error' ? 'failed' : 'pending'
        const fields = {
          toolCallId: event.toolUseId,
          // A state change without input or summary keeps the title the client has.
          ...((event.input !== undefined || event.summary) && { title: toolTitle(event.name, event.input, event.summary) }),
          kind: toolKind(event.name),
          status,
          ...(event.input !== undefined && { rawInput: event.input, locations: toolLocations(event.input) }),
        } as const
        if (this.announced.has(event.toolUseId)) return [{ sessionUpdate: 'tool_call_update', ...fields }]
        this.announced.add(event.toolUseId)
        return [{ sessionUpdate: 'tool_call', title: event.name, ...fields }]
      }
      case 'tool_progress':
        return this.announced.has(event.toolUseId) ? [{ sessionUpdate: 'tool_call_update', toolCallId: event.toolUseId, status: 'in_progress' }] : []
      case 'tool_end': {
        const first = this.announced.has(event.toolUseId) ? [] : [this.announce(event.toolUseId, event.name)]
        return [...first, { sessionUpdate: 'tool_call_update', toolCallId: event.toolUseId, status: event.isError ? 'failed' : 'completed', content: resultContent(event.details, event.content), rawOutput: event.content }]
      }
      case 'task_update':
        return [this.plan(event.tasks, event.deleted)]
      case 'mode_change':
        return [{ sessionUpdate: 'current_mode_update', currentModeId: event.mode }]
      default:
        return []
    }
  }

  private announce(toolUseId: string, name: string): SessionUpdate {
    this.announced.add(toolUseId)
    return { sessionUpdate: 'tool_call', toolCallId: toolUseId, title: name, kind: toolKind(name), status: 'pending' }
  }

  private plan(changed: readonly TaskItem[], deleted: readonly string[]): SessionUpdate {
    for (const task of changed) this.tasks.set(task.id, task)
    for (const id of deleted) this.tasks.delete(id)
    const entries: PlanEntry[] = [...this.tasks.values()].sort(compareTaskOrder).map((task) => ({
      content: task.status === 'in_progress' && task.activeForm ? task.activeForm : task.subject,
      priority: 'medium',
      status: task.status,
    }))
    return { sessionUpdate: 'plan', entries }
  }
}
