import { randomUUID } from 'node:crypto'
import type { AgentEvent, Usage } from '../shared/protocol/agent-event'
import type { Message } from '../main/services/model/types'
import type { TaskNotice } from '../main/context/task-notification'

/** What the `system`/`init` line names (Claude Code's fields that Sous has). */
export interface StreamInit {
  sessionId: string
  cwd: string
  model: string
  permissionMode: string
  tools: string[]
  mcpServers: Array<{ name: string; status: string }>
  version: string
  slashCommands?: string[]
  agents?: string[]
  skills?: string[]
}

/**
 * `--output-format stream-json` as Claude Code prints it (`--verbose` is implied): a `system`
 * `init` line; the main agent's replies and the tool results it sends back, whole, as `assistant`
 * and `user` lines (the prompt itself is not echoed, as in Claude Code) with
 * `parent_tool_use_id` (null for the main agent; a subagent shows as the `user` line of its prompt
 * under its Agent call, as Claude Code does without `--forward-subagent-text`); with
 * `--include-partial-messages`, `stream_event` lines (the API's stream events, rebuilt from Sous's
 * own: message_start, content_block_start/delta/stop, message_delta, message_stop); the `result`
 * line is written by the caller. Sous's own events are `--output-format sous-events`.
 */
export class ClaudeStream {
  private model = ''
  private usage: Usage | undefined
  /** The open content block of the reply streaming now (partial messages only). */
  private block: { index: number; kind: 'text' | 'thinking' | 'tool_use' } | undefined
  private nextIndex = 0
  private streaming = false

  constructor(
    private readonly write: (line: Record<string, unknown>) => void,
    private readonly options: { sessionId: string; partial: boolean },
  ) {}

  /** The first line. */
  init(init: StreamInit): void {
    this.model = init.model
    this.write({
      type: 'system',
      subtype: 'init',
      cwd: init.cwd,
      session_id: init.sessionId,
      tools: init.tools,
      mcp_servers: init.mcpServers,
      model: init.model,
      permissionMode: init.permissionMode,
      slash_commands: init.slashCommands ?? [],
      apiKeySource: 'ANTHROPIC_API_KEY',
      claude_code_version: init.version,
      output_style: 'default',
      agents: init.agents ?? [],
      skills: init.skills ?? [],
      uuid: randomUUID(),
    })
  }

  /** One of Sous's events: tracks the model and usage, and rebuilds stream events and subagent prompts. */
  onEvent(event: AgentEvent): void {
    if (event.type === 'agent_start' && event.parentToolUseId) {
      this.write({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: event.prompt }] }, parent_tool_use_id: event.parentToolUseId, session_id: this.options.sessionId, uuid: randomUUID(), timestamp: new Date(event.at).toISOString(), agent_id: event.agentId, subagent_type: event.agentType, task_description: event.description })
      return
    }
    if (event.parentToolUseId) return
    if (event.type === 'request_start') this.model = event.model
    if (event.type === 'usage') this.usage = event.request
    if (!this.options.partial) return
    switch (event.type) {
      case 'request_start':
        this.streaming = true
        this.nextIndex = 0
        this.block = undefined
        return this.streamEvent({ type: 'message_start', message: { id: messageId(), type: 'message', role: 'assistant', model: event.model, content: [], stop_reason: null, stop_sequence: null, usage: wireUsage(undefined) } })
      case 'text_delta':
      case 'thinking_delta': {
        const kind = event.type === 'text_delta' ? 'text' : 'thinking'
        if (this.block?.kind !== kind) this.startBlock(kind, kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '' })
        return this.streamEvent({ type: 'content_block_delta', index: this.block!.index, delta: kind === 'text' ? { type: 'text_delta', text: event.text } : { type: 'thinking_delta', thinking: event.text } })
      }
      case 'tool_use_start':
        return this.startBlock('tool_use', { type: 'tool_use', id: event.toolUseId, name: event.name, input: {} })
      default:
        return
    }
  }

  /**
   * Background work of the main agent ended: Claude Code's `system` `task_notification` line (the
   * notification's own user message is not printed, as in Claude Code; the turn it starts is).
   */
  taskNotification(notice: TaskNotice): void {
    this.write({
      type: 'system',
      subtype: 'task_notification',
      task_id: notice.taskId,
      ...(notice.toolUseId && { tool_use_id: notice.toolUseId }),
      status: notice.status,
      ...(notice.outputFile && { output_file: notice.outputFile }),
      summary: notice.summary,
      ...(notice.usage && { usage: { total_tokens: notice.usage.tokens, tool_uses: notice.usage.toolUses, duration_ms: Math.round(notice.usage.durationMs) } }),
      uuid: randomUUID(),
      session_id: this.options.sessionId,
    })
  }

  /** A message the main agent added to its conversation, as an `assistant` or `user` line. */
  onMessage(message: Message): void {
    const base = { parent_tool_use_id: null, session_id: this.options.sessionId, uuid: randomUUID(), timestamp: new Date().toISOString() }
    if (message.role === 'user') {
      // Claude Code prints the tool results it sends back, not the prompt (that is --replay-user-messages, which Sous has not).
      if (typeof message.content === 'string' || !message.content.some((block) => block.type === 'tool_result')) return
      return this.write({ type: 'user', message: { role: 'user', content: message.content.map(withoutCacheControl) }, ...base })
    }
    const stopReason = message.content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn'
    // stop_reason is null as in Claude Code's lines, written before the stream's message_delta; the stop is in that event and the result.
    this.write({ type: 'assistant', message: { id: messageId(), type: 'message', role: 'assistant', model: this.model, content: message.content.map(withoutCacheControl), stop_reason: null, stop_sequence: null, usage: wireUsage(this.usage) }, ...base })
    if (!this.options.partial || !this.streaming) return
    if (this.block) this.streamEvent({ type: 'content_block_stop', index: this.block.index })
    this.block = undefined
    this.streamEvent({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: this.usage?.outputTokens ?? 0 } })
    this.streamEvent({ type: 'message_stop' })
    this.streaming = false
  }

  private startBlock(kind: 'text' | 'thinking' | 'tool_use', contentBlock: Record<string, unknown>): void {
    if (this.block) this.streamEvent({ type: 'content_block_stop', index: this.block.index })
    this.block = { index: this.nextIndex++, kind }
    this.streamEvent({ type: 'content_block_start', index: this.block.index, content_block: contentBlock })
  }

  private streamEvent(event: Record<string, unknown>): void {
    this.write({ type: 'stream_event', event, parent_tool_use_id: null, session_id: this.options.sessionId, uuid: randomUUID() })
  }
}

/** Usage as the API names it. */
function wireUsage(usage: Usage | undefined): Record<string, number> {
  return { input_tokens: usage?.inputTokens ?? 0, cache_creation_input_tokens: usage?.cacheWriteTokens ?? 0, cache_read_input_tokens: usage?.cacheReadTokens ?? 0, output_tokens: usage?.outputTokens ?? 0 }
}

function withoutCacheControl<T extends object>(block: T): T {
  if (!('cache_control' in block)) return block
  const { cache_control: _dropped, ...rest } = block as T & { cache_control?: unknown }
  return rest as T
}

function messageId(): string {
  return `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`
}
