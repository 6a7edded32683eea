import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { historyToReplay } from '../../lib/history-replay'
import { addPendingTurn, emptyTranscript, failTurn, isRunning, reduce, type Transcript } from './reducer'

const ids = { sessionId: 's1', agentId: 'main' }
type Body = AgentEvent extends infer E ? (E extends AgentEvent ? Omit<E, 'sessionId' | 'agentId'> : never) : never
const ev = (body: Body): AgentEvent => ({ ...ids, ...body }) as AgentEvent
const fold = (events: AgentEvent[], start: Transcript = emptyTranscript) => events.reduce(reduce, start)

describe('chat reducer', () => {
  it('attaches turn_start to the pending prompt and concatenates deltas per block', () => {
    const pending = addPendingTurn(emptyTranscript, 'local-1', 'hello')
    const state = fold(
      [
        ev({ type: 'turn_start', turnId: 't1', prompt: 'hello' }),
        ev({ type: 'thinking_delta', text: 'Let me ' }),
        ev({ type: 'thinking_delta', text: 'think.' }),
        ev({ type: 'text_delta', text: 'Hi ' }),
        ev({ type: 'text_delta', text: 'there' }),
      ],
      pending,
    )
    expect(state.turns).toHaveLength(1)
    expect(state.turns[0]).toMatchObject({
      key: 'local-1',
      turnId: 't1',
      blocks: [
        { kind: 'thinking', text: 'Let me think.' },
        { kind: 'text', text: 'Hi there' },
      ],
    })
    expect(isRunning(state)).toBe(true)
  })

  it('keeps two replies of one turn apart, live and replayed from a stored history', () => {
    const live = [
      ev({ type: 'turn_start', turnId: 't1', prompt: 'hello' }),
      ev({ type: 'text_delta', text: 'First reply.' }),
      ev({ type: 'assistant_message', text: 'First reply.', stopReason: 'end_turn' }),
      // A Stop hook sent the agent on: a second reply, with nothing in between.
      ev({ type: 'text_delta', text: 'Second ' }),
      ev({ type: 'text_delta', text: 'reply.' }),
      ev({ type: 'assistant_message', text: 'Second reply.', stopReason: 'end_turn' }),
    ]
    const blocks = [
      { kind: 'text', text: 'First reply.' },
      { kind: 'text', text: 'Second reply.' },
    ]
    expect(fold(live).turns[0]?.blocks).toEqual(blocks)
    const stored = live.filter((event) => event.type !== 'text_delta')
    expect(fold(historyToReplay(stored)).turns[0]?.blocks).toEqual(blocks)
  })

  it('tracks a tool call through its states and result', () => {
    const state = fold([
      ev({ type: 'turn_start', turnId: 't1', prompt: 'list' }),
      ev({ type: 'tool_use_start', toolUseId: 'u1', name: 'Bash' }),
      ev({ type: 'tool_state', toolUseId: 'u1', name: 'Bash', state: 'running', input: { command: 'ls' }, summary: 'ls' }),
      ev({ type: 'tool_progress', toolUseId: 'u1', text: 'a\n' }),
      ev({ type: 'tool_end', toolUseId: 'u1', name: 'Bash', isError: false, content: 'a\nb' }),
      ev({ type: 'text_delta', text: 'Done.' }),
    ])
    expect(state.turns[0]?.blocks).toEqual([
      {
        kind: 'tool',
        toolUseId: 'u1',
        name: 'Bash',
        state: 'done',
        input: { command: 'ls' },
        summary: 'ls',
        progress: 'a\n',
        result: { isError: false, content: 'a\nb' },
      },
      { kind: 'text', text: 'Done.' },
    ])
  })

  it('records usage, notices and the end reason; unfinished tools settle as stopped', () => {
    const usage = { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 }
    const state = fold([
      ev({ type: 'turn_start', turnId: 't1', prompt: 'x' }),
      ev({ type: 'tool_use_start', toolUseId: 'u1', name: 'Read' }),
      ev({ type: 'model_retry', attempt: 2, reason: 'overloaded', delayMs: 1500 }),
      ev({ type: 'usage', model: 'claude', request: usage, total: usage, costUsd: 0.001 }),
      ev({ type: 'turn_end', reason: 'aborted', message: 'Stopped by the user.' }),
      ev({ type: 'text_delta', text: 'late' }),
    ])
    const turn = state.turns[0]
    expect(turn?.end).toEqual({ reason: 'aborted', message: 'Stopped by the user.' })
    expect(turn?.usage?.costUsd).toBe(0.001)
    expect(turn?.notices).toEqual([{ level: 'warning', message: 'Retrying (attempt 2) in 1.5s: overloaded' }])
    expect(turn?.blocks).toEqual([
      { kind: 'tool', toolUseId: 'u1', name: 'Read', state: 'error', result: { isError: true, content: 'Stopped before it finished.', interrupted: true } },
    ])
    expect(isRunning(state)).toBe(false)
  })

  it('ignores subagent events and events with no live turn', () => {
    const before = fold([ev({ type: 'text_delta', text: 'orphan' })])
    expect(before.turns).toEqual([])
    const state = fold([
      ev({ type: 'turn_start', turnId: 't1', prompt: 'x' }),
      { ...ids, agentId: 'sub', parentToolUseId: 'u9', type: 'text_delta', text: 'from a subagent' },
    ])
    expect(state.turns[0]?.blocks).toEqual([])
  })

  it('fails a pending turn that the engine refused', () => {
    const state = failTurn(addPendingTurn(emptyTranscript, 'k', 'hi'), 'k', 'No API key')
    expect(state.turns[0]?.end).toEqual({ reason: 'model_error', message: 'No API key' })
  })

  it('puts memory events on the turn they are about, even after it ended, and side costs in the totals only', () => {
    const usage = (input: number, cost: number) => ({ inputTokens: input, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, cost })
    const memoryEvent = (body: Body): AgentEvent => ({ sessionId: 's1', agentId: 'memory', ...body }) as AgentEvent
    const pnpm = { scope: 'project' as const, file: 'feedback_use_pnpm.md', name: 'Use pnpm', path: '/m/feedback_use_pnpm.md' }
    const { cost: mainCost, ...mainUsage } = usage(900, 0.01)
    const { cost: sideCost, ...sideUsage } = usage(50, 0.001)
    const state = fold([
      ev({ type: 'turn_start', turnId: 't1', prompt: 'use pnpm' }),
      memoryEvent({ type: 'memory_recall', turnId: 't1', memories: [pnpm], attached: true, model: 'haiku' }),
      ev({ type: 'usage', model: 'sonnet', request: mainUsage, total: mainUsage, costUsd: mainCost }),
      ev({ type: 'turn_end', reason: 'completed' }),
      memoryEvent({ type: 'usage', model: 'sonnet', request: sideUsage, total: { ...mainUsage, inputTokens: 950 }, costUsd: mainCost + sideCost }),
      memoryEvent({ type: 'memory_write', turnId: 't1', memory: pnpm, memoryType: 'feedback', change: 'created', changeId: 'c1' }),
      memoryEvent({ type: 'notice', level: 'warning', message: 'A memory was not saved: too long' }),
    ])
    const [turn] = state.turns
    expect(turn!.memory).toEqual({ recalled: [pnpm], late: [], written: [{ memory: pnpm, memoryType: 'feedback', change: 'created', changeId: 'c1' }] })
    expect(turn!.usage).toEqual({ request: mainUsage, model: 'sonnet', total: { ...mainUsage, inputTokens: 950 }, costUsd: mainCost + sideCost })
    expect(turn!.notices).toEqual([{ level: 'warning', message: 'A memory was not saved: too long' }])
  })

  it('shows compactions as notices and follows the session’s own count of the context', () => {
    const record = { trigger: 'auto' as const, tokensBefore: 170_000, messagesBefore: 300, harnessMs: 4, at: '2026-01-01T00:00:00.000Z' }
    const state = fold([
      ev({ type: 'turn_start', turnId: 't1', prompt: 'go on' }),
      ev({ type: 'context_status', tokens: 170_000, window: 200_000, autoCompactAt: 167_000 }),
      ev({ type: 'compaction_start', layer: 'auto', trigger: 'auto', tokensBefore: 170_000 }),
      ev({ type: 'compaction', layer: 'auto', status: 'done', tokensAfter: 21_000, messagesAfter: 3, detail: 'summarized 300 messages', ...record }),
      ev({ type: 'compaction', layer: 'micro', status: 'failed', tokensAfter: 21_000, messagesAfter: 3, detail: 'no summary', ...record }),
    ])
    const turn = state.turns[0]!
    expect(turn.notices.map((notice) => [notice.level, notice.message])).toEqual([
      ['info', 'Compacting the conversation (automatic summary, about 170k tokens)…'],
      ['info', 'Compacted (automatic summary): 170k → 21k tokens; summarized 300 messages.'],
      ['warning', 'Compaction (micro-compaction) failed: no summary'],
    ])
    expect(turn.context).toEqual({ tokens: 21_000, window: 200_000, autoCompactAt: 167_000 })
  })

  it('holds the request-guard question until the next request or the end of the turn', () => {
    const asked = fold([ev({ type: 'turn_start', turnId: 't1', prompt: 'go' }), ev({ type: 'turn_limit', turns: 200 })])
    expect(asked.turns[0]?.limitQuestion).toEqual({ turns: 200 })
    expect(fold([ev({ type: 'request_start', model: 'm', attempt: 1 })], asked).turns[0]?.limitQuestion).toBeUndefined()
    const stopped = fold([ev({ type: 'turn_end', reason: 'max_turns' })], asked).turns[0]
    expect(stopped?.limitQuestion).toBeUndefined()
    expect(stopped?.end).toEqual({ reason: 'max_turns' })
  })
})
