import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { emptyTimeline, filesLine, foldTimeline, markName, type TimelineInput } from './model'

const S = 's1'
const main = { sessionId: S, agentId: 'main' }
const sub = { sessionId: S, agentId: 'agent-1', parentToolUseId: 'call-agent' }
const ev = (event: AgentEvent): TimelineInput => ({ kind: 'event', event })

/** A turn where the main agent edits a file, runs a command, and starts a subagent that reads and edits. */
const session: TimelineInput[] = [
  ev({ ...main, type: 'turn_start', turnId: 't1', prompt: 'Fix the parser\nand test it' }),
  ev({ ...main, type: 'text_delta', text: 'On it.' }),
  ev({ ...main, type: 'tool_use_start', toolUseId: 'call-edit', name: 'Edit' }),
  ev({ ...main, type: 'tool_state', toolUseId: 'call-edit', name: 'Edit', state: 'running', input: { file_path: '/p/src/parser.ts', old_string: 'a', new_string: 'b' } }),
  ev({ ...main, type: 'tool_end', toolUseId: 'call-edit', name: 'Edit', isError: false, content: 'ok', details: { filePath: '/p/src/parser.ts', before: 'a', after: 'b' } }),
  ev({ ...main, type: 'tool_use_start', toolUseId: 'call-bash', name: 'Bash' }),
  ev({ ...main, type: 'tool_state', toolUseId: 'call-bash', name: 'Bash', state: 'running', input: { command: 'npm test' } }),
  ev({ ...main, type: 'tool_end', toolUseId: 'call-bash', name: 'Bash', isError: true, content: 'Exit code 1', details: { exitCode: 1 } }),
  ev({ ...main, type: 'tool_use_start', toolUseId: 'call-agent', name: 'Agent' }),
  ev({ ...sub, type: 'agent_start', parentAgentId: 'main', agentType: 'general-purpose', description: 'Fix the test', prompt: 'Fix it', model: 'm', background: false, at: 1 }),
  ev({ ...sub, type: 'turn_start', turnId: 'sub-t1', prompt: 'Fix it' }),
  ev({ ...sub, type: 'tool_state', toolUseId: 'call-write', name: 'Write', state: 'running', input: { file_path: '/p/test/parser.test.ts', content: 'x' } }),
  ev({ ...sub, type: 'tool_end', toolUseId: 'call-write', name: 'Write', isError: false, content: 'written', details: { filePath: '/p/test/parser.test.ts', before: '', after: 'x' } }),
  ev({ ...sub, type: 'agent_end', status: 'completed', result: 'done', usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0, durationMs: 1, turns: 1, at: 2 }),
  ev({ ...main, type: 'tool_end', toolUseId: 'call-agent', name: 'Agent', isError: false, content: 'done' }),
  ev({ ...main, type: 'compaction', layer: 'auto', trigger: 'auto', status: 'done', tokensBefore: 1000, tokensAfter: 100, messagesBefore: 9, messagesAfter: 2, harnessMs: 1, detail: 'summarized', at: '2026-12-02T00:00:00Z' }),
  ev({ ...main, type: 'turn_end', reason: 'completed' }),
]

describe('the timeline model', () => {
  it('makes a mark per turn, call, command, file change and compaction, and a lane per subagent', () => {
    const timeline = foldTimeline(emptyTimeline(S), session)
    expect(timeline.lanes.map((lane) => [lane.id, lane.label, lane.state, lane.anchor])).toEqual([
      ['main', 'Main agent', 'done', undefined],
      ['agent-1', 'general-purpose: Fix the test', 'done', 'call-agent'],
    ])
    expect(timeline.marks.map((mark) => [mark.seq, mark.lane, mark.kind, markName(mark)])).toEqual([
      [0, 'main', 'turn', 'Turn 1: Fix the parser and test it'],
      [1, 'main', 'file', 'Edit /p/src/parser.ts'],
      [2, 'main', 'command', 'Bash: npm test — failed'],
      [3, 'main', 'tool', 'Agent'],
      [4, 'agent-1', 'file', 'Write /p/test/parser.test.ts'],
      [5, 'main', 'compaction', 'Compaction (automatic summary)'],
    ])
  })

  it('leads each mark to its card: a turn, the main agent’s call, or the Agent call a subagent hangs under', () => {
    const timeline = foldTimeline(emptyTimeline(S), session)
    const target = (id: string) => timeline.marks[timeline.index.get(id)!]!.target
    expect(target('turn:t1')).toEqual({ turnId: 't1' })
    expect(target('tool:call-bash')).toEqual({ toolUseId: 'call-bash' })
    expect(target('tool:call-write')).toEqual({ toolUseId: 'call-agent' })
    expect(target('compaction:16')).toEqual({ turnId: 't1' })
  })

  it('names the files changed at a step', () => {
    const timeline = foldTimeline(emptyTimeline(S), session)
    const mark = (id: string) => timeline.marks[timeline.index.get(id)!]!
    expect(filesLine(mark('tool:call-edit'))).toBe('Files changed: /p/src/parser.ts')
    expect(filesLine(mark('tool:call-write'))).toBe('Files changed: /p/test/parser.test.ts')
    expect(filesLine(mark('turn:t1'))).toBe('No files changed')
    const read = foldTimeline(timeline, [ev({ ...main, type: 'tool_state', toolUseId: 'call-read', name: 'Read', state: 'running', input: { file_path: '/p/a.ts' } }), ev({ ...main, type: 'tool_end', toolUseId: 'call-read', name: 'Read', isError: false, content: '1 a', details: { filePath: '/p/a.ts' } })])
    expect(filesLine(read.marks.at(-1)!)).toBe('No files changed')
  })

  it('records where in the inputs each mark began (a replay lands it there)', () => {
    const timeline = foldTimeline(emptyTimeline(S), session)
    expect(timeline.marks.map((mark) => mark.at)).toEqual([0, 2, 5, 8, 11, 15])
    expect(timeline.folded).toBe(session.length)
  })

  it('is the same folded in one batch or event by event, and keeps unchanged marks and empty batches as they were', () => {
    const whole = foldTimeline(emptyTimeline(S), session)
    const stepwise = session.reduce((timeline, input) => foldTimeline(timeline, [input]), emptyTimeline(S))
    expect(stepwise.marks).toEqual(whole.marks)
    expect(stepwise.lanes).toEqual(whole.lanes)
    const before = foldTimeline(emptyTimeline(S), session.slice(0, 5))
    const after = foldTimeline(before, [ev({ ...main, type: 'tool_use_start', toolUseId: 'call-read', name: 'Read' })])
    expect(after.marks.slice(0, -1).every((mark, index) => mark === before.marks[index])).toBe(true)
    expect(foldTimeline(after, []).marks).toBe(after.marks)
    expect(foldTimeline(after, [ev({ ...main, type: 'usage', model: 'm', request: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, total: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0 })]).marks).toBe(after.marks)
  })

  it('marks hook firings on the call they are about, and approvals with their answer', () => {
    const timeline = foldTimeline(emptyTimeline(S), [
      ...session.slice(0, 7),
      { kind: 'hook', run: { at: 5, sessionId: S, event: 'PreToolUse', matcher: 'Bash', command: './check.sh', exitCode: 2, durationMs: 3, timedOut: false, input: '{"tool_name":"Bash","tool_use_id":"call-bash"}', stdout: '', stderr: 'no' } },
      { kind: 'hook', run: { at: 6, sessionId: 'other', event: 'Stop', command: 'x', exitCode: 0, durationMs: 1, timedOut: false, input: '{}', stdout: '', stderr: '' } },
      { kind: 'approval', request: { id: 'ap1', sessionId: S, toolUseId: 'call-write', toolName: 'Write', input: {}, explanation: { kind: 'mode', text: 'asks' }, suggestions: [], agent: { id: 'agent-1', type: 'general-purpose', description: 'Fix the test' } } },
      { kind: 'approval_resolved', id: 'ap1', outcome: 'allowed_once' },
    ])
    const hook = timeline.marks.find((mark) => mark.kind === 'hook')!
    expect(markName(hook)).toBe('Hook PreToolUse (Bash): ./check.sh — exit 2')
    expect(hook.target).toEqual({ toolUseId: 'call-bash' })
    expect(timeline.marks.filter((mark) => mark.kind === 'hook')).toHaveLength(1)
    const approval = timeline.marks.find((mark) => mark.kind === 'approval')!
    expect(markName(approval)).toBe('Approval for Write — allowed once')
    expect(approval.lane).toBe('agent-1')
  })

  it('marks a stored session’s hooks and approvals from its transcript’s events as the live inputs do', () => {
    const live = foldTimeline(emptyTimeline(S), [
      ...session.slice(0, 7),
      { kind: 'hook', run: { at: 5, sessionId: S, event: 'PreToolUse', matcher: 'Bash', command: './check.sh', exitCode: 2, durationMs: 3, timedOut: false, input: '{"tool_name":"Bash","tool_use_id":"call-bash"}', stdout: '', stderr: 'no' } },
      { kind: 'approval', request: { id: 'ap1', sessionId: S, toolUseId: 'call-bash', toolName: 'Bash', input: {}, explanation: { kind: 'mode', text: 'asks' }, suggestions: [] } },
      { kind: 'approval_resolved', id: 'ap1', outcome: 'rejected' },
    ])
    const stored = foldTimeline(emptyTimeline(S), [
      ...session.slice(0, 7),
      ev({ ...main, type: 'hook_run', event: 'PreToolUse', matcher: 'Bash', command: './check.sh', exitCode: 2, durationMs: 3, timedOut: false, aboutToolUseId: 'call-bash', at: 5 }),
      ev({ ...main, type: 'approval_answered', approvalId: 'ap1', toolUseId: 'call-bash', toolName: 'Bash', outcome: 'rejected', explanation: 'asks' }),
    ])
    const shape = (timeline: typeof live) => timeline.marks.filter((mark) => mark.kind === 'hook' || mark.kind === 'approval').map((mark) => [mark.lane, markName(mark), mark.state, mark.target])
    expect(shape(stored)).toEqual([
      ['main', 'Hook PreToolUse (Bash): ./check.sh — exit 2', 'error', { toolUseId: 'call-bash' }],
      ['main', 'Approval for Bash — rejected', 'error', { toolUseId: 'call-bash' }],
    ])
    expect(shape(stored)).toEqual(shape(live))
  })

  it('ignores another session’s events and a repeated turn_start', () => {
    const timeline = foldTimeline(emptyTimeline(S), [session[0]!, session[0]!, ev({ sessionId: 'other', agentId: 'main', type: 'turn_start', turnId: 'x', prompt: 'elsewhere' })])
    expect(timeline.marks).toHaveLength(1)
  })
})
