import { describe, expect, it } from 'vitest'
import type { ApprovalRequest } from './queue'
import { checkRule } from './check-rule'

const bash = (commands: string[]): ApprovalRequest => ({
  id: 'r',
  toolName: 'Bash',
  input: { command: commands.join(' && ') },
  preview: { kind: 'command', command: commands.join(' && '), commands },
  explanation: { kind: 'default', detail: 'asks' },
  suggestions: [],
})

describe('checkRule', () => {
  it('says which simple commands a Bash rule would allow, and whether that covers the call', () => {
    const request = bash(['npm test', 'npm run lint'])
    expect(checkRule(request, 'Bash(npm test)')).toEqual({ ok: true, matches: ['npm test'], misses: ['npm run lint'], covers: false })
    expect(checkRule(request, 'Bash(npm *)')).toEqual({ ok: true, matches: ['npm test', 'npm run lint'], misses: [], covers: true })
  })

  it('reports a rule that does not parse, and a tool rule by name', () => {
    expect(checkRule(bash(['ls']), 'Bash(ls')).toMatchObject({ ok: false, covers: false })
    expect(checkRule(bash(['ls']), 'Bash')).toMatchObject({ ok: true, covers: true, matches: ['Bash'] })
    expect(checkRule({ ...bash(['ls']), toolName: 'Edit' }, 'Bash(ls)')).toMatchObject({ ok: true, covers: false, error: expect.stringContaining('does not apply to Edit') })
  })
})
