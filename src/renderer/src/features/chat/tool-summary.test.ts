import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { emptyTranscript, reduce, type Block } from './reducer'
import { RunningSummary } from './RunningSummary'

// The small model's line on a long-running call: on the card while the call runs (ToolCard shows
// RunningSummary while the block has `runningSummary` and no result), gone with its result, and
// ignored when it arrives after the result.
const ids = { sessionId: 's1', agentId: 'main' }
const fold = (events: Array<Record<string, unknown>>) => events.map((event) => ({ ...ids, ...event }) as AgentEvent).reduce(reduce, emptyTranscript)
const toolOf = (events: Array<Record<string, unknown>>) => fold(events).turns[0]!.blocks[0] as Extract<Block, { kind: 'tool' }>

const RUNNING = [
  { type: 'turn_start', turnId: 't1', prompt: 'test' },
  { type: 'tool_use_start', toolUseId: 'u1', name: 'Bash' },
  { type: 'tool_state', toolUseId: 'u1', name: 'Bash', state: 'running', input: { command: 'npm test' }, summary: 'npm test' },
  { type: 'tool_summary', toolUseId: 'u1', summary: 'Running the test suite' },
]
const END = { type: 'tool_end', toolUseId: 'u1', name: 'Bash', isError: false, content: 'ok' }

describe('a running call’s summary on its tool card', () => {
  it('shows while the call runs, as a status line with an accessible name', () => {
    const tool = toolOf(RUNNING)
    expect(tool.runningSummary).toBe('Running the test suite')
    const html = renderToStaticMarkup(createElement(RunningSummary, { toolName: tool.name, summary: tool.runningSummary! }))
    expect(html).toContain('role="status"')
    expect(html).toContain('aria-label="What Bash is doing: Running the test suite"')
  })

  it('goes with the result, and a late one is not shown', () => {
    const ended = toolOf([...RUNNING, END])
    expect(ended.runningSummary).toBeUndefined()
    const late = toolOf([...RUNNING.slice(0, 3), END, { type: 'tool_summary', toolUseId: 'u1', summary: 'Too late' }])
    expect(late.runningSummary).toBeUndefined()
  })
})
