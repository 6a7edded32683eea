import type { AgentEvent, BudgetLine, MemoryMention, PauseChoice, PauseReason, TerminalReason, ToolState, Usage } from '../../../../shared/protocol/agent-event'
import { compactionLine, layerName, tokenCount } from '../../../../shared/protocol/compaction'

/** One piece of the assistant's side of a turn, in the order it arrived. */
export type Block =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string }
  | {
      kind: 'tool'
      toolUseId: string
      name: string
      state: ToolState
      input?: unknown
      summary?: string
      /** The latest progress output, trimmed to its tail. */
      progress?: string
      /** The small model's line on what the call is doing, while it runs long (tool_summary). */
      runningSummary?: string
      /** `interrupted`: cut by an interrupted turn (a stop, a dropped connection), not a failure of the tool. */
      result?: { isError: boolean; content: string; details?: unknown; interrupted?: boolean }
      /** Auto mode's classifier judged this call: what it said, and why. */
      auto?: { decision: 'allow' | 'ask'; reason: string; decisionId: string }
    }

export interface Notice {
  level: 'info' | 'warning' | 'error'
  message: string
}

/** A prompt and everything the agent did about it. */
export interface Turn {
  /** Local key; the engine's turnId once `turn_start` arrived. */
  key: string
  turnId?: string
  prompt: string
  blocks: Block[]
  notices: Notice[]
  usage?: { request: Usage; total: Usage; costUsd: number; model: string }
  end?: { reason: TerminalReason; message?: string }
  /** What the harness did about model service trouble in this turn. */
  recovery?: { retries: number; fallback?: { from: string; to: string } }
  /** Memories recalled for the prompt, and written from the turn afterwards. */
  memory?: TurnMemory
  /** The size of the turn's latest request against the window (before it was sent), or after a compaction. */
  context?: { tokens: number; window: number; autoCompactAt: number }
  /** The turn reached its request guard and waits for the user to say go on or stop. */
  limitQuestion?: { turns: number }
  /** The budget guard or the loop brake paused the turn: the card asks what to do. */
  pause?: { pauseId: string; reason: PauseReason; message: string; choices: PauseChoice[] }
  /** The session's spend against its caps and the next request's forecast, as last reported. */
  budget?: { spentUsd: number; spentTokens: number; forecastUsd: number; forecastTokens: number; lines: BudgetLine[]; level: 'ok' | 'warning' | 'exceeded' }
}

/** What memory did around one turn. */
export interface TurnMemory {
  recalled: MemoryMention[]
  /** Recall picked these, but only after the turn's last request (they were not sent). */
  late: MemoryMention[]
  written: Array<{ memory: MemoryMention; memoryType: string; change: 'created' | 'updated' | 'proposed'; changeId?: string }>
}

/** The agent id of memory's side work (recall, extraction); its events may come after the turn ended. */
export const MEMORY_AGENT = 'memory'

export interface Transcript {
  turns: Turn[]
}

export const emptyTranscript: Transcript = { turns: [] }

const PROGRESS_TAIL = 4000

/** Adds the user's prompt before the engine has acknowledged it. */
export function addPendingTurn(transcript: Transcript, key: string, prompt: string): Transcript {
  return { turns: [...transcript.turns, { key, prompt, blocks: [], notices: [] }] }
}

/** Ends a turn locally: a prompt that was refused, or a stop that Sous could not confirm. */
export function failTurn(transcript: Transcript, key: string, message: string, reason: TerminalReason = 'model_error'): Transcript {
  return mapTurn(transcript, (turn) => turn.key === key && !turn.end, (turn) => ({
    ...turn,
    blocks: turn.blocks.map(settleTool),
    end: { reason, message },
  }))
}

/**
 * Folds one event of the main agent into the transcript. Subagent events (with a
 * `parentToolUseId`) are left to the tool card that spawned them and ignored here.
 * Pure: returns a new transcript and never mutates the old one.
 */
export function reduce(transcript: Transcript, event: AgentEvent): Transcript {
  if (event.parentToolUseId) return transcript
  if (event.type === 'turn_start') return startTurn(transcript, event.turnId, event.prompt)
  if (event.agentId === MEMORY_AGENT) return reduceMemory(transcript, event)
  const last = transcript.turns.at(-1)
  if (!last || last.end) return transcript // Nothing live to attach it to.
  const update = (change: (turn: Turn) => Turn) => mapTurn(transcript, (turn) => turn === last, change)

  switch (event.type) {
    case 'text_delta':
      return update((turn) => appendText(turn, 'text', event.text))
    case 'thinking_delta':
      return update((turn) => appendText(turn, 'thinking', event.text))
    case 'tool_use_start':
      return update((turn) => upsertTool(turn, event.toolUseId, event.name, (tool) => tool))
    case 'tool_state':
      return update((turn) =>
        upsertTool(turn, event.toolUseId, event.name, (tool) => ({
          ...tool,
          state: event.state,
          ...(event.input !== undefined && { input: event.input }),
          ...(event.summary !== undefined && { summary: event.summary }),
        })),
      )
    case 'tool_progress':
      return update((turn) =>
        upsertTool(turn, event.toolUseId, '', (tool) => ({
          ...tool,
          progress: ((tool.progress ?? '') + event.text).slice(-PROGRESS_TAIL),
        })),
      )
    case 'tool_summary': // only while it runs: a summary that lost the race with the result is not shown
      return update((turn) => upsertTool(turn, event.toolUseId, '', (tool) => (tool.result ? tool : { ...tool, runningSummary: event.summary })))
    case 'tool_end':
      return update((turn) =>
        upsertTool(turn, event.toolUseId, event.name, ({ runningSummary: _summary, ...tool }) => ({
          ...tool,
          state: event.isError ? 'error' : 'done',
          result: { isError: event.isError, content: event.content, ...(event.details !== undefined && { details: event.details }), ...(event.interrupted && { interrupted: true }) },
        })),
      )
    case 'auto_decision':
      return update((turn) => upsertTool(turn, event.toolUseId, event.toolName, (tool) => ({ ...tool, auto: { decision: event.decision, reason: event.reason, decisionId: event.decisionId } })))
    case 'usage':
      return update((turn) => ({
        ...turn,
        usage: { request: event.request, total: event.total, costUsd: event.costUsd, model: event.model },
        // After the reply the conversation holds the prompt it answered plus the reply itself.
        ...(turn.context && { context: { ...turn.context, tokens: event.request.inputTokens + event.request.cacheReadTokens + event.request.cacheWriteTokens + event.request.outputTokens } }),
      }))
    case 'model_retry':
      return update((turn) =>
        addNotice({ ...turn, recovery: { ...turn.recovery, retries: (turn.recovery?.retries ?? 0) + 1 } }, 'warning', `Retrying (attempt ${event.attempt}) in ${Math.round(event.delayMs / 100) / 10}s: ${event.reason}`),
      )
    case 'model_fallback':
      return update((turn) =>
        addNotice({ ...turn, recovery: { retries: turn.recovery?.retries ?? 0, fallback: { from: event.from, to: event.to } } }, 'warning', `Switched from ${event.from} to ${event.to}: ${event.reason}`),
      )
    case 'notice':
      return update((turn) => addNotice(turn, event.level, event.message))
    case 'turn_end':
      return update(({ limitQuestion: _answered, pause: _ended, ...turn }) => ({
        ...turn,
        blocks: turn.blocks.map(settleTool),
        end: { reason: event.reason, ...(event.message !== undefined && { message: event.message }) },
      }))
    case 'turn_limit':
      return update((turn) => ({ ...turn, limitQuestion: { turns: event.turns } }))
    case 'session_pause':
      return update((turn) => ({ ...turn, pause: { pauseId: event.pauseId, reason: event.reason, message: event.message, choices: event.choices } }))
    case 'session_resume':
      return update(({ pause, ...turn }) => (pause && pause.pauseId !== event.pauseId ? { ...turn, pause } : turn))
    case 'budget_status': {
      const { spentUsd, spentTokens, forecastUsd, forecastTokens, lines, level } = event
      return update((turn) => ({ ...turn, budget: { spentUsd, spentTokens, forecastUsd, forecastTokens, lines, level } }))
    }
    case 'request_start':
      // The next request after the user said go on: the question is answered.
      return update(({ limitQuestion: _answered, ...turn }) => turn)
    case 'assistant_message':
      // The reply is whole: a next reply's text is a block of its own, not run into this one.
      return update(closeReply)
    case 'memory_recall':
    case 'memory_write':
      // The streamed deltas already carry the text; these are for transcripts and logs.
      return transcript
    case 'compaction_start':
      return update((turn) => addNotice(turn, 'info', `Compacting the conversation (${layerName(event.layer)}, about ${tokenCount(event.tokensBefore)} tokens)…`))
    case 'compaction':
      return update((turn) => ({
        ...addNotice(turn, event.status === 'done' ? 'info' : 'warning', compactionLine(event)),
        ...(event.status === 'done' && turn.context && { context: { ...turn.context, tokens: event.tokensAfter } }),
      }))
    case 'context_status':
      return update((turn) => ({ ...turn, context: { tokens: event.tokens, window: event.window, autoCompactAt: event.autoCompactAt } }))
    case 'task_update':
    case 'mode_change':
    case 'agent_start':
    case 'agent_background':
    case 'agent_end':
    case 'team_message':
    case 'shell_start':
    case 'shell_end':
    case 'hook_run':
    case 'approval_answered':
    case 'scheduled_fire':
    case 'scheduled_missed':
    case 'peer_message':
      // Not part of the conversation: the task list, the mode, the agent tree, the timeline and the inbox (scheduled prompts) have their own state.
      return transcript
    case 'sandbox_unavailable':
      // Shown once per session as a banner (SandboxBanner, from the chat store), not in a turn.
      return transcript
  }
}

/**
 * Memory's events: recall and writes land on the turn they are about (by id, even once it ended);
 * the side requests' usage updates the session totals without touching the last request's figures
 * (the context meter reads those); its notices join the latest turn.
 */
function reduceMemory(transcript: Transcript, event: AgentEvent): Transcript {
  const last = transcript.turns.at(-1)
  const onTurn = (turnId: string, change: (memory: TurnMemory) => TurnMemory) =>
    mapTurn(transcript, (turn) => turn.turnId === turnId, (turn) => ({ ...turn, memory: change(turn.memory ?? { recalled: [], late: [], written: [] }) }))
  switch (event.type) {
    case 'memory_recall':
      return onTurn(event.turnId, (memory) => (event.attached ? { ...memory, recalled: [...memory.recalled, ...event.memories] } : { ...memory, late: [...memory.late, ...event.memories] }))
    case 'memory_write':
      return onTurn(event.turnId, (memory) => ({
        ...memory,
        written: [...memory.written, { memory: event.memory, memoryType: event.memoryType, change: event.change, ...(event.changeId !== undefined && { changeId: event.changeId }) }],
      }))
    case 'usage':
      if (!last) return transcript
      return mapTurn(transcript, (turn) => turn === last, (turn) => ({
        ...turn,
        usage: { request: turn.usage?.request ?? event.request, model: turn.usage?.model ?? event.model, total: event.total, costUsd: event.costUsd },
      }))
    case 'notice':
      return last ? mapTurn(transcript, (turn) => turn === last, (turn) => addNotice(turn, event.level, event.message)) : transcript
    default:
      return transcript
  }
}

/** Whether the last turn is still running. */
export function isRunning(transcript: Transcript): boolean {
  const last = transcript.turns.at(-1)
  return !!last && !last.end
}

function startTurn(transcript: Transcript, turnId: string, prompt: string): Transcript {
  const last = transcript.turns.at(-1)
  if (last && !last.end && !last.turnId) {
    return mapTurn(transcript, (turn) => turn === last, (turn) => ({ ...turn, turnId }))
  }
  if (last?.turnId === turnId) return transcript
  return { turns: [...transcript.turns, { key: turnId, turnId, prompt, blocks: [], notices: [] }] }
}

// Text blocks of replies that are whole (their assistant_message came): the next text starts anew.
const closedBlocks = new WeakSet<Block>()

/** Ends the reply's last text or thinking block (a copy marked closed, so the fold stays pure). */
function closeReply(turn: Turn): Turn {
  const last = turn.blocks.at(-1)
  if (!last || last.kind === 'tool' || closedBlocks.has(last)) return turn
  const closed = { ...last }
  closedBlocks.add(closed)
  return { ...turn, blocks: [...turn.blocks.slice(0, -1), closed] }
}

function appendText(turn: Turn, kind: 'text' | 'thinking', text: string): Turn {
  const last = turn.blocks.at(-1)
  if (last && last.kind === kind && !closedBlocks.has(last)) {
    return { ...turn, blocks: [...turn.blocks.slice(0, -1), { kind, text: last.text + text }] }
  }
  return { ...turn, blocks: [...turn.blocks, { kind, text }] }
}

type ToolBlock = Extract<Block, { kind: 'tool' }>

function upsertTool(turn: Turn, toolUseId: string, name: string, change: (tool: ToolBlock) => ToolBlock): Turn {
  const index = turn.blocks.findIndex((block) => block.kind === 'tool' && block.toolUseId === toolUseId)
  if (index === -1) {
    const fresh: ToolBlock = { kind: 'tool', toolUseId, name, state: 'pending' }
    return { ...turn, blocks: [...turn.blocks, change(fresh)] }
  }
  const blocks = turn.blocks.slice()
  const existing = blocks[index] as ToolBlock
  blocks[index] = change({ ...existing, name: existing.name || name })
  return { ...turn, blocks }
}

/** A tool still pending when its turn ends (e.g. aborted) is shown as stopped, not spinning forever. */
function settleTool(block: Block): Block {
  if (block.kind !== 'tool' || block.state === 'done' || block.state === 'error') return block
  return { ...block, state: 'error', result: block.result ?? { isError: true, content: 'Stopped before it finished.', interrupted: true } }
}

function addNotice(turn: Turn, level: Notice['level'], message: string): Turn {
  return { ...turn, notices: [...turn.notices, { level, message }] }
}

function mapTurn(transcript: Transcript, match: (turn: Turn) => boolean, change: (turn: Turn) => Turn): Transcript {
  return { turns: transcript.turns.map((turn) => (match(turn) ? change(turn) : turn)) }
}
