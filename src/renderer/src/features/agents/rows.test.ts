import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { emptyTree, foldTree, type AgentTree } from '../../../../shared/protocol/agent-tree'
import { conversationOf, toolDetail } from './conversation'
import { canOpen, canStop, elapsed, sameRow, stateName, usageText, visibleRows } from './rows'

const base = { sessionId: 's1' }
const usage = { inputTokens: 100, outputTokens: 50, cacheReadTokens: 0, cacheWriteTokens: 0 }

function treeOf(events: Array<Record<string, unknown>>): AgentTree {
  let tree = emptyTree('s1')
  for (const event of events) tree = foldTree(tree, { ...base, ...event } as AgentEvent)
  return tree
}

const started = (agentId: string, parentAgentId: string, at = 1000) => ({ type: 'agent_start', agentId, parentAgentId, agentType: 'Explore', description: `Job ${agentId}`, prompt: `Do ${agentId}`, model: 'm', background: false, at })

describe('the rows of the agent tree', () => {
  it('go depth first with levels, totals rolled up, and nothing under a folded node', () => {
    const tree = treeOf([
      { type: 'turn_start', agentId: 'main', turnId: 't', prompt: 'Go' },
      started('agent-a', 'main'),
      started('agent-b', 'agent-a'),
      { type: 'agent_end', agentId: 'agent-b', status: 'completed', result: 'ok', usage, costUsd: 0.5, durationMs: 10, turns: 1, at: 2000 },
      started('agent-c', 'main'),
    ])
    const rows = visibleRows(tree, new Set(), { 'agent-c': 1 })
    expect(rows.map((row) => [row.node.id, row.level])).toEqual([['main', 1], ['agent-a', 2], ['agent-b', 3], ['agent-c', 2]])
    expect(rows[0]).toMatchObject({ tokens: 150, costUsd: 0.5 })
    expect(rows[1]).toMatchObject({ tokens: 150, parent: true })
    expect(stateName(rows[3]!)).toBe('Waiting for approval')
    expect(stateName(rows[2]!)).toBe('Done')
    expect(visibleRows(tree, new Set(['agent-a']), {}).map((row) => row.node.id)).toEqual(['main', 'agent-a', 'agent-c'])
    expect(canStop(rows[1]!.node)).toBe(true)
    expect(canStop(rows[2]!.node)).toBe(false)
    expect(canOpen(rows[2]!.node)).toBe(true)
  })

  it('say elapsed time and usage briefly', () => {
    const node = emptyTree('s1').nodes['main']!
    expect(elapsed(node, 5000)).toBe('')
    expect(elapsed({ ...node, startedAt: 0 }, 1500)).toBe('1.5s')
    expect(elapsed({ ...node, startedAt: 0, endedAt: 184_000 }, 999_999)).toBe('3m 04s')
    expect(elapsed({ ...node, startedAt: 0 }, 3_720_000)).toBe('1h 02m')
    expect(usageText(0, 0)).toBe('')
    expect(usageText(12_345, 0.0412)).toBe('12.3k tok · $0.04')
  })

  it("stay the same rows when another agent's node changes, and differ where the change shows", () => {
    const before = treeOf([started('agent-a', 'main'), started('agent-b', 'main')])
    const after = foldTree(before, { ...base, type: 'tool_state', agentId: 'agent-b', toolUseId: 'tu1', name: 'Read', state: 'running', summary: 'a.ts' } as AgentEvent)
    const [oldRows, newRows] = [visibleRows(before, new Set(), {}), visibleRows(after, new Set(), {})]
    expect(oldRows.map((row, index) => sameRow(row, newRows[index]!))).toEqual([true, true, false])
    // Tokens rolled up into the root change the root's row; a waiting approval changes its node's.
    const used = foldTree(after, { ...base, type: 'usage', agentId: 'agent-a', model: 'm', request: usage, total: usage, costUsd: 0.1 } as AgentEvent)
    expect(visibleRows(used, new Set(), {}).map((row, index) => sameRow(row, newRows[index]!))).toEqual([false, false, true])
    expect(visibleRows(after, new Set(), { 'agent-a': 1 }).map((row, index) => sameRow(row, newRows[index]!))).toEqual([true, false, true])
  })

  it('stay fast with hundreds of nodes', () => {
    const events = [started('agent-0', 'main')]
    for (let index = 1; index < 300; index++) events.push(started(`agent-${index}`, `agent-${Math.floor(index / 3)}`))
    const rows = visibleRows(treeOf(events), new Set(), {})
    expect(rows).toHaveLength(301)
    expect(Math.max(...rows.map((row) => row.level))).toBeGreaterThan(4)
  })
})

describe('an agent conversation, read-only', () => {
  it('shows the prompt, streamed text replaced by the whole reply, tool calls with results, and the end', () => {
    const events = [
      { ...started('agent-a', 'main'), prompt: 'Count files' },
      { type: 'text_delta', agentId: 'agent-a', text: 'Count' },
      { type: 'text_delta', agentId: 'agent-a', text: 'ing…' },
      { type: 'assistant_message', agentId: 'agent-a', text: 'Counting…', stopReason: 'tool_use' },
      { type: 'tool_state', agentId: 'agent-a', toolUseId: 'tu1', name: 'Glob', state: 'running', summary: '**/*' },
      { type: 'tool_end', agentId: 'agent-a', toolUseId: 'tu1', name: 'Glob', isError: false, content: 'a.ts\nb.ts' },
      { type: 'turn_end', agentId: 'agent-a', reason: 'completed' },
      { type: 'agent_end', agentId: 'agent-a', status: 'completed', result: 'Two', usage, costUsd: 0, durationMs: 1200, turns: 2, at: 3000 },
    ].map((event) => ({ ...base, ...event }) as AgentEvent)
    expect(conversationOf(events)).toEqual([
      { kind: 'prompt', text: 'Count files' },
      { kind: 'text', text: 'Counting…' },
      { kind: 'tool', toolUseId: 'tu1', name: 'Glob', summary: '**/*', result: 'a.ts\nb.ts', isError: false },
      { kind: 'end', text: 'Finished in 1.2s, 2 turns.', failed: false },
    ])
    // While it streams, the text so far shows.
    expect(conversationOf(events.slice(0, 3)).at(-1)).toEqual({ kind: 'text', text: 'Counting…' })
  })

  it('shows what compaction did to the agent’s conversation, as the main conversation does', () => {
    const record = { layer: 'auto', trigger: 'auto', tokensBefore: 170_000, tokensAfter: 4_200, messagesBefore: 6, messagesAfter: 3, harnessMs: 2, detail: 'summarized 6 messages', at: '2026-01-01T00:00:00Z' }
    const events = [
      { ...started('agent-a', 'main'), prompt: 'Read everything' },
      { type: 'compaction', agentId: 'agent-a', ...record, status: 'done' },
      { type: 'compaction', agentId: 'agent-a', ...record, status: 'failed', detail: 'The summary could not be made: overloaded' },
    ].map((event) => ({ ...base, ...event }) as AgentEvent)
    expect(conversationOf(events).slice(1)).toEqual([
      { kind: 'compaction', text: 'Compacted (automatic summary): 170k → 4.2k tokens; summarized 6 messages.', failed: false },
      { kind: 'compaction', text: 'Compaction (automatic summary) failed: The summary could not be made: overloaded', failed: true },
    ])
  })
  // The engine streams a reply's tool calls (tool_state pending) before its assistant_message; a
  // stored history has the same order without the deltas.
  const reply = (withDeltas: boolean) =>
    [
      { ...started('agent-a', 'main'), prompt: 'Look around' },
      ...(withDeltas ? [{ type: 'text_delta', agentId: 'agent-a', text: 'Looking ' }, { type: 'text_delta', agentId: 'agent-a', text: 'first.' }] : []),
      { type: 'tool_use_start', agentId: 'agent-a', toolUseId: 'tu1', name: 'Read' },
      { type: 'tool_state', agentId: 'agent-a', toolUseId: 'tu1', name: 'Read', state: 'pending', summary: 'Read src/a.ts' },
      { type: 'assistant_message', agentId: 'agent-a', text: 'Looking first.', stopReason: 'tool_use' },
      { type: 'tool_state', agentId: 'agent-a', toolUseId: 'tu1', name: 'Read', state: 'running' },
      { type: 'tool_end', agentId: 'agent-a', toolUseId: 'tu1', name: 'Read', isError: false, content: 'x' },
      { type: 'tool_state', agentId: 'agent-a', toolUseId: 'tu2', name: 'Bash', state: 'pending', summary: 'Bash ls' },
      { type: 'assistant_message', agentId: 'agent-a', text: 'Then the list.', stopReason: 'tool_use' },
      { type: 'tool_end', agentId: 'agent-a', toolUseId: 'tu2', name: 'Bash', isError: false, content: 'a.ts' },
      { type: 'assistant_message', agentId: 'agent-a', text: 'Done.', stopReason: 'end_turn' },
    ].map((event) => ({ ...base, ...event }) as AgentEvent)

  it.each([
    ['live', true],
    ['stored', false],
  ])("puts a reply's text before the tool calls it made, once (%s)", (_, withDeltas) => {
    expect(conversationOf(reply(withDeltas)).map((entry) => (entry.kind === 'tool' ? `tool ${entry.toolUseId}` : `${entry.kind} ${'text' in entry ? entry.text : ''}`))).toEqual([
      'prompt Look around',
      'text Looking first.',
      'tool tu1',
      'text Then the list.',
      'tool tu2',
      'text Done.',
    ])
  })

  it('names a tool once, though its summary starts with the name', () => {
    expect(toolDetail('Read', 'Read src/a.ts')).toBe('src/a.ts')
    expect(toolDetail('Bash', 'Run the tests')).toBe('Run the tests')
    expect(toolDetail('TaskList', 'TaskList')).toBe('')
  })
})
