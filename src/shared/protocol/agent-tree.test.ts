import { describe, expect, it } from 'vitest'
import type { AgentEvent } from './agent-event'
import { callNodeId, emptyTree, foldTree, rollUp, settleInterrupted, shellNodeId, subtree, taskNodeId, type AgentTree } from './agent-tree'

const usage = (tokens: number) => ({ inputTokens: tokens, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 })

function fold(events: Array<Record<string, unknown>>, tree: AgentTree = emptyTree('s1')): AgentTree {
  for (const event of events) tree = foldTree(tree, { sessionId: 's1', ...event } as AgentEvent)
  return tree
}

const agentCall = (agentId: string, toolUseId: string, description: string) => ({ type: 'tool_state', agentId, toolUseId, name: 'Agent', state: 'pending', input: { description, subagent_type: 'Explore' } })
const agentStart = (agentId: string, parentAgentId: string, parentToolUseId: string) => ({ type: 'agent_start', agentId, parentAgentId, parentToolUseId, agentType: 'Explore', description: `Job of ${agentId}`, prompt: 'Go', model: 'm', background: false, at: 100 })

describe('the agent tree fold', () => {
  it('shows an Agent call queued, then the agent it started in its place, nested to any depth', () => {
    let tree = fold([{ type: 'turn_start', agentId: 'main', turnId: 't1', prompt: 'Go' }, agentCall('main', 'tu1', 'Survey')])
    expect(tree.nodes[callNodeId('tu1')]).toMatchObject({ state: 'queued', label: 'Explore', description: 'Survey', parentId: 'main' })
    expect(tree.nodes['main']).toMatchObject({ state: 'running', activity: 'Agent', activityId: 'tu1' })
    tree = fold([agentStart('agent-a', 'main', 'tu1'), agentCall('agent-a', 'tu2', 'Deeper'), agentStart('agent-b', 'agent-a', 'tu2'), { type: 'shell_start', agentId: 'agent-b', parentToolUseId: 'tu2', shellId: 'bash_1', command: 'sleep 9', at: 150 }], tree)
    expect(tree.nodes[callNodeId('tu1')]).toBeUndefined()
    expect(tree.nodes['main']!.children).toEqual(['agent-a'])
    expect(tree.nodes['agent-a']).toMatchObject({ state: 'running', parentId: 'main', children: ['agent-b'], toolUseId: 'tu1' })
    expect(tree.nodes['agent-b']!.children).toEqual([shellNodeId('agent-b', 'bash_1')])
    expect(subtree(tree, 'agent-a').map((node) => node.id)).toEqual(['agent-a', 'agent-b', shellNodeId('agent-b', 'bash_1')])
  })

  it('ends nodes with their state, usage and cost, and rolls the totals up to the root', () => {
    const tree = fold([
      agentCall('main', 'tu1', 'Survey'),
      agentStart('agent-a', 'main', 'tu1'),
      agentStart('agent-b', 'agent-a', 'tu2'),
      { type: 'shell_start', agentId: 'agent-b', shellId: 'bash_1', command: 'false', at: 120 },
      { type: 'shell_end', agentId: 'agent-b', shellId: 'bash_1', status: 'failed', exitCode: 1, at: 130 },
      { type: 'agent_end', agentId: 'agent-b', status: 'failed', message: 'API error', result: '', usage: usage(30), costUsd: 0.3, durationMs: 5, turns: 1, at: 140 },
      { type: 'agent_end', agentId: 'agent-a', status: 'stopped', result: '', usage: usage(20), costUsd: 0.2, durationMs: 9, turns: 1, at: 150 },
      { type: 'usage', agentId: 'main', model: 'm', turn: usage(5), total: usage(10), costUsd: 0.1 },
    ])
    expect(tree.nodes[shellNodeId('agent-b', 'bash_1')]).toMatchObject({ state: 'failed', message: 'exit code 1', endedAt: 130 })
    expect(tree.nodes['agent-b']).toMatchObject({ state: 'failed', message: 'API error', tokens: 30, endedAt: 140 })
    expect(tree.nodes['agent-a']).toMatchObject({ state: 'stopped', tokens: 20 })
    const totals = rollUp(tree)
    expect(totals.get('main')).toEqual({ tokens: 60, costUsd: expect.closeTo(0.6, 5) })
    expect(totals.get('agent-a')).toEqual({ tokens: 50, costUsd: expect.closeTo(0.5, 5) })
  })

  it('an Agent call refused before its agent started ends as failed', () => {
    const tree = fold([agentCall('main', 'tu1', 'Survey'), { type: 'tool_end', agentId: 'main', toolUseId: 'tu1', name: 'Agent', isError: true, content: 'Permission denied\nmore' }])
    expect(tree.nodes[callNodeId('tu1')]).toMatchObject({ state: 'failed', message: 'Permission denied' })
    expect(tree.nodes['main']!.activity).toBeUndefined()
  })

  it('places task items under the agent that owns them, and moves or removes them as they change', () => {
    const task = (id: string, status: string, owner?: string) => ({ id, subject: `Task ${id}`, description: '', status, blocks: [], blockedBy: [], ...(owner && { owner }) })
    let tree = fold([agentStart('agent-a', 'main', 'tu1'), { type: 'task_update', agentId: 'main', listId: 'L', tasks: [task('1', 'pending'), task('2', 'in_progress', 'agent-a')], deleted: [], actor: 'main' }])
    expect(tree.nodes[taskNodeId('L', '1')]).toMatchObject({ parentId: 'main', state: 'queued', label: 'Task #1' })
    expect(tree.nodes[taskNodeId('L', '2')]).toMatchObject({ parentId: 'agent-a', state: 'running' })
    tree = fold([{ type: 'task_update', agentId: 'main', listId: 'L', tasks: [task('2', 'completed')], deleted: ['1'], actor: 'main' }], tree)
    expect(tree.nodes[taskNodeId('L', '1')]).toBeUndefined()
    expect(tree.nodes[taskNodeId('L', '2')]).toMatchObject({ parentId: 'main', state: 'done' })
    expect(tree.nodes['agent-a']!.children).toEqual([])
  })

  it('folds events again over a tree that has them without a second node (a view catching up after loading)', () => {
    const events = [agentCall('main', 'tu1', 'Survey'), agentStart('agent-a', 'main', 'tu1'), { type: 'agent_end', agentId: 'agent-a', status: 'completed', result: 'ok', usage: usage(5), costUsd: 0, durationMs: 1, turns: 1, at: 200 }]
    const once = fold(events)
    const again = fold(events, once)
    expect(Object.keys(again.nodes).sort()).toEqual(['agent-a', 'main'])
    expect(again.nodes['main']!.children).toEqual(['agent-a'])
    expect(again.nodes['agent-a']!.state).toBe('done')
  })

  it('returns the same tree for events that change nothing (the stream of text)', () => {
    const tree = fold([agentStart('agent-a', 'main', 'tu1')])
    expect(foldTree(tree, { sessionId: 's1', agentId: 'agent-a', type: 'text_delta', text: 'hi' })).toBe(tree)
  })

  it('marks what was running and is not running now as stopped (a tree rebuilt after a restart)', () => {
    const tree = fold([{ type: 'turn_start', agentId: 'main', turnId: 't', prompt: 'Go' }, agentStart('agent-a', 'main', 'tu1'), agentStart('agent-b', 'main', 'tu2')])
    const settled = settleInterrupted(tree, new Set(['agent-b']), 999)
    expect(settled.nodes['agent-a']).toMatchObject({ state: 'stopped', endedAt: 999, message: expect.stringContaining('Interrupted') })
    expect(settled.nodes['main']!.state).toBe('stopped')
    expect(settled.nodes['agent-b']!.state).toBe('running')
  })

  it('keeps a task in progress in progress after a restart: a task item is the task list, not a process', () => {
    const task = { id: '1', subject: 'Write the parser', description: '', status: 'in_progress', blocks: [], blockedBy: [] }
    const tree = fold([{ type: 'task_update', agentId: 'main', listId: 'L', tasks: [task, { ...task, id: '2', status: 'pending' }], deleted: [], actor: 'main' }])
    const settled = settleInterrupted(tree, new Set(), 999)
    expect(settled.nodes[taskNodeId('L', '1')]).toMatchObject({ state: 'running' })
    expect(settled.nodes[taskNodeId('L', '1')]!.message).toBeUndefined()
    expect(settled.nodes[taskNodeId('L', '2')]).toMatchObject({ state: 'queued' })
  })
})
