import { describe, expect, it } from 'vitest'
import type { ApprovalRequested } from '../../../shared/ipc/contract'
import type { AgentEvent } from '../../../shared/protocol/agent-event'
import { applyEvent, applyInputWait, approvalEntry, heldMessageId, inboxList, seen, type EventEntries } from './inbox-model'

const base = { sessionId: 's1', agentId: 'main' }
const nobody = () => false

describe('inbox model', () => {
  it('keeps a message held from another session through turns and openings until it is released or dropped', () => {
    const held = { ...base, type: 'peer_message', messageId: 'm1', from: 'alpha-ab [ab12cd]', fromSessionId: 'other', status: 'held', text: 'Check the tests\nplease', at: 1 } as AgentEvent
    let entries = applyEvent({}, held, 1, nobody)
    expect(Object.values(entries).map((e) => [e.id, e.kind, e.title])).toEqual([['peer:m1', 'peer', 'Message from alpha-ab [ab12cd] (held): Check the tests']])
    expect(heldMessageId(Object.values(entries)[0]!)).toBe('m1')
    entries = applyEvent(entries, { ...base, type: 'turn_start' } as AgentEvent, 2, nobody)
    expect(Object.keys(seen(entries, 's1'))).toEqual(['peer:m1'])
    expect(applyEvent(entries, { ...held, status: 'released' } as AgentEvent, 3, nobody)).toEqual({})
    expect(applyEvent(entries, { ...held, status: 'dropped' } as AgentEvent, 3, nobody)).toEqual({})
    expect(applyEvent({}, { ...held, status: 'delivered' } as AgentEvent, 3, nobody)).toEqual({})
  })

  it('keeps a pause until it is answered, and a run that ended unseen until the session is looked at', () => {
    let entries: EventEntries = {}
    entries = applyEvent(entries, { ...base, type: 'session_pause', pauseId: 'p1', reason: 'budget', message: 'cap', choices: ['stop'] } as AgentEvent, 1, nobody)
    expect(Object.values(entries).map((e) => [e.kind, e.title])).toEqual([['pause', 'Paused at the spending cap']])
    entries = applyEvent(entries, { ...base, type: 'session_resume', pauseId: 'p1', choice: 'continue' } as AgentEvent, 2, nobody)
    expect(entries).toEqual({})
    entries = applyEvent(entries, { ...base, type: 'turn_end', reason: 'completed' } as AgentEvent, 3, nobody)
    entries = applyEvent(entries, { ...base, sessionId: 's2', type: 'turn_end', reason: 'model_error', message: 'overloaded' } as unknown as AgentEvent, 4, nobody)
    expect(Object.values(entries).map((e) => [e.sessionId, e.kind, e.title])).toEqual([
      ['s1', 'finished', 'Finished'],
      ['s2', 'failed', 'Stopped: overloaded'],
    ])
    expect(Object.keys(seen(entries, 's1'))).toEqual(['run:s2'])
  })

  it('adds nothing for a run the user watched, one they stopped, or a subagent ending', () => {
    const end = { ...base, type: 'turn_end', reason: 'completed' } as AgentEvent
    expect(applyEvent({}, end, 1, (id) => id === 's1')).toEqual({})
    expect(applyEvent({}, { ...end, reason: 'aborted' } as AgentEvent, 1, nobody)).toEqual({})
    expect(applyEvent({}, { ...end, agentId: 'agent-1' }, 1, nobody)).toEqual({})
  })

  it('keeps a command waiting for input until it goes on, and a new turn does not hide it', () => {
    const waiting = applyInputWait({}, { sessionId: 's1', ptyId: 'p1', command: 'read -p "Name? " n', waiting: true }, 1)
    expect(Object.values(waiting)).toEqual([{ id: 'input:p1', kind: 'input', sessionId: 's1', title: 'Waits for input: read -p "Name? " n', at: 1 }])
    expect(applyInputWait(waiting, { sessionId: 's1', ptyId: 'p1', command: '', waiting: false }, 2)).toEqual({})
    expect(applyInputWait(waiting, { sessionId: 's1', ptyId: 'p2', command: '', waiting: false }, 2)).toBe(waiting)
  })

  it('lists approvals by kind with everything else, oldest first', () => {
    const request = (id: string, toolName: string, preview?: ApprovalRequested['preview']): ApprovalRequested => ({
      id,
      sessionId: 's1',
      toolUseId: `t-${id}`,
      toolName,
      input: {},
      ...(preview && { preview }),
      explanation: { kind: 'default', text: '' },
      suggestions: [],
    })
    const describe = (r: ApprovalRequested) => r.toolName
    const approvals = [approvalEntry(request('a', 'Bash'), describe, 5), approvalEntry(request('b', 'ExitPlanMode', { kind: 'plan', plan: 'x' }), describe, 1), approvalEntry(request('c', 'AskUserQuestion'), describe, 3)]
    const events = applyEvent({}, { ...base, type: 'turn_end', reason: 'completed' } as AgentEvent, 2, nobody)
    expect(inboxList(approvals, events).map((e) => `${e.id}:${e.kind}`)).toEqual(['b:plan', 'run:s1:finished', 'c:question', 'a:approval'])
  })

  it('lists a scheduled prompt that fired, and missed runs, until the session is opened (its own turn does not hide it)', () => {
    const fired = applyEvent({}, { ...base, type: 'scheduled_fire', jobId: 'j1', cron: '*/5 * * * *', prompt: 'check the deploy', at: 10 } as AgentEvent, 10, nobody)
    const missed = applyEvent(fired, { ...base, type: 'scheduled_missed', jobId: 'j2', cron: '0 9 * * *', prompt: 'standup notes', runs: [1, 2, 3] } as AgentEvent, 11, nobody)
    expect(Object.values(missed).map((e) => `${e.kind}: ${e.title}`)).toEqual(['scheduled: Scheduled: check the deploy', 'scheduled: Missed 3 runs while closed (not run): standup notes'])
    const started = applyEvent(missed, { ...base, type: 'turn_start', turnId: 't', prompt: '[Scheduled] check the deploy' } as AgentEvent, 12, nobody)
    expect(Object.keys(started)).toHaveLength(2)
    expect(seen(started, 's1')).toEqual({})
  })
})
