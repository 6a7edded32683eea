import { describe, expect, it } from 'vitest'
import type { ApprovalRequested } from '../../../shared/ipc/contract'
import { addRequest, isWaiting, mergeList, ofSession, removeRequest, waitingByAgent } from './approval-queue'

const request = (id: string, sessionId = 's1', command = 'npm test'): ApprovalRequested => ({
  id,
  sessionId,
  toolUseId: `t-${id}`,
  toolName: 'Bash',
  input: { command },
  preview: { kind: 'command', command },
  explanation: { kind: 'default', text: 'asks by default' },
  suggestions: [],
})

describe('approval queue', () => {
  it('keeps arrival order and ignores duplicates', () => {
    const queue = [request('a'), request('b'), request('a')].reduce(addRequest, [] as readonly ApprovalRequested[])
    expect(queue.map((r) => r.id)).toEqual(['a', 'b'])
    expect(removeRequest(queue, 'a').map((r) => r.id)).toEqual(['b'])
    expect(removeRequest(queue, 'zzz')).toBe(queue)
  })

  it('merges the host list: drops settled requests, adds missing ones, keeps our order', () => {
    const queue = [request('a'), request('b')]
    expect(mergeList(queue, [request('c'), request('b')]).map((r) => r.id)).toEqual(['b', 'c'])
  })

  it('filters by session', () => {
    const queue = [request('a'), request('b', 's2')]
    expect(ofSession(queue, 's2').map((r) => r.id)).toEqual(['b'])
    expect(ofSession(queue, null)).toEqual([])
  })

  it('says which tool calls and which agents wait', () => {
    const helper = { id: 'agent-1', type: 'Explore', description: 'look' }
    const queue = [request('a'), request('b', 's2'), { ...request('c'), agent: helper }, { ...request('d'), agent: helper }]
    expect(isWaiting(queue, 't-b')).toBe(true)
    expect(isWaiting(queue, 't-z')).toBe(false)
    expect(waitingByAgent(queue, 's1')).toEqual({ main: 1, 'agent-1': 2 })
    expect(waitingByAgent(queue, null)).toEqual({})
  })
})
