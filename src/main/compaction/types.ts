import type { AgentEvent } from '../../shared/protocol/agent-event'
import type { CompactionTrigger } from '../../shared/protocol/compaction'
import type { Message, ModelService, TextBlock, ToolSchema } from '../services/model/types'

/** An event compaction reports, without the identity the loop stamps on it. */
export type CompactionNews = AgentEvent extends infer E
  ? E extends { type: 'compaction' | 'compaction_start' | 'notice' | 'context_status' }
    ? Omit<E, 'sessionId' | 'agentId' | 'parentToolUseId'>
    : never
  : never

/** What a request is made of, besides its messages: the summary request reuses all of it. */
export interface RequestShape {
  model: ModelService
  modelName: string
  system: TextBlock[]
  tools: ToolSchema[]
  signal: AbortSignal
}

/** What to send now, and the conversation the session keeps (the same array when nothing was rewritten). */
export interface Prepared {
  messages: Message[]
  send: Message[]
  /** The newest message is expected to be stubbed at the next request (streak.ts): place the last cache breakpoint before it. */
  deferNewest?: boolean
}

/** PreCompact and PostCompact (Claude Code's protocol), and SessionStart with source `compact`. None may throw. */
export interface CompactionHooks {
  /** Before a summarizing compaction: `blocked` (exit 2 or `decision: block`) keeps the conversation as it is. */
  preCompact(trigger: CompactionTrigger, customInstructions: string): Promise<{ blocked?: string }>
  /** After it: the summary the model will read. */
  postCompact(trigger: CompactionTrigger, summary: string): Promise<void>
  /** SessionStart with `source: compact`: context its hooks add goes after the summary. */
  sessionStart?(): Promise<{ additionalContext?: string }>
}
