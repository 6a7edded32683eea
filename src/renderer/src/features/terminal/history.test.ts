import { describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../../../shared/protocol/agent-event'
import { pastCommands } from './history'

const base = { sessionId: 's', agentId: 'main' }

describe('pastCommands', () => {
  it('pairs each Bash call with its output and exit code, leaving other tools and subagents out', () => {
    const events: AgentEvent[] = [
      {
        ...base,
        type: 'tool_state',
        toolUseId: 'a',
        name: 'Bash',
        state: 'running',
        input: { command: 'ls' },
      },
      {
        ...base,
        type: 'tool_state',
        toolUseId: 'b',
        name: 'Read',
        state: 'running',
        input: { file_path: '/x' },
      },
      { ...base, type: 'tool_end', toolUseId: 'b', name: 'Read', isError: false, content: 'x' },
      {
        ...base,
        type: 'tool_end',
        toolUseId: 'a',
        name: 'Bash',
        isError: false,
        content: 'README.md',
        details: { exitCode: 0 },
      },
      {
        ...base,
        parentToolUseId: 'p',
        type: 'tool_state',
        toolUseId: 'c',
        name: 'Bash',
        state: 'running',
        input: { command: 'sub' },
      },
      {
        ...base,
        type: 'tool_state',
        toolUseId: 'd',
        name: 'Bash',
        state: 'running',
        input: { command: 'false' },
      },
      {
        ...base,
        type: 'tool_end',
        toolUseId: 'd',
        name: 'Bash',
        isError: true,
        content: 'Exit code 1',
        details: { exitCode: 1 },
      },
    ]
    expect(pastCommands(events)).toEqual([
      { command: 'ls', output: 'README.md', exitCode: 0 },
      { command: 'false', output: 'Exit code 1', exitCode: 1 },
    ])
  })
})
