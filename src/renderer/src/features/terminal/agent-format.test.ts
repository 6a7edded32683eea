import { describe, expect, it } from 'vitest'
import { commandFooter, commandHeader, exitCodeOf } from './agent-format'

describe('Agent terminal formatting', () => {
  it('heads each command with its line, continuation lines marked', () => {
    expect(commandHeader('echo hi', true)).toBe('\x1b[1;36m$ echo hi\x1b[0m\r\n')
    expect(commandHeader('for x in 1\ndo echo $x; done', false)).toBe(
      '\r\n\x1b[1;36m$ for x in 1\r\n\x1b[1;36m> do echo $x; done\x1b[0m\r\n',
    )
  })

  it("reads the exit code from the Bash tool's end marker", () => {
    expect(exitCodeOf('f00dcafe;0')).toBe(0)
    expect(exitCodeOf('f00dcafe;127')).toBe(127)
    expect(exitCodeOf('garbage')).toBeUndefined()
    expect(commandFooter(0)).toContain('[exit 0]')
    expect(commandFooter(1)).toContain('\x1b[31m[exit 1]')
    expect(commandFooter(undefined)).toContain('[stopped]')
  })
})
