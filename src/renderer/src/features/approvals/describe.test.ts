import { describe, expect, it } from 'vitest'
import type { ApprovalRequested } from '../../../../shared/ipc/contract'
import { describeRequest } from './describe'

const request = (command: string, agent?: ApprovalRequested['agent']): ApprovalRequested => ({
  id: 'a',
  sessionId: 's1',
  toolUseId: 't-a',
  toolName: 'Bash',
  input: { command },
  preview: { kind: 'command', command },
  explanation: { kind: 'default', text: 'asks by default' },
  suggestions: [],
  ...(agent && { agent }),
})

describe('describeRequest', () => {
  it('describes a request in one line, a subagent\'s prefixed with its type', () => {
    expect(describeRequest(request('make build'))).toBe('Bash: make build')
    expect(describeRequest(request('ls', { id: 'x', type: 'Explore', description: 'look' }))).toBe('Explore › Bash: ls')
  })
})
