import { describe, expect, it } from 'vitest'
import { refusedBySandbox, reportViolations, violationLines } from './bash-sandbox'

describe('refusedBySandbox', () => {
  const write = ['deny openat /home/me/elsewhere/out.txt']

  it('needs both a reported refusal and its trace in the output', () => {
    expect(refusedBySandbox('bash: /home/me/elsewhere/out.txt: Read-only file system', write)).toBe(true)
    expect(refusedBySandbox('touch: cannot touch \'x\': Permission denied', write)).toBe(true)
    expect(refusedBySandbox('curl: (56) CONNECT tunnel failed, response 403', ['deny network-outbound example.org:443'])).toBe(true)
    // A failure of the command's own, with a harmless write attempt on record.
    expect(refusedBySandbox('2 tests failed', write)).toBe(false)
    // The same words without any refusal on record: not the sandbox.
    expect(refusedBySandbox('Permission denied (publickey).', [])).toBe(false)
  })

  it('always reports refused hosts, and refused writes only when they made the command fail', () => {
    const host = 'deny network-outbound example.org:443 (user denied)'
    expect(reportViolations([host, ...write], { failed: false, output: 'fell back to the cache' })).toEqual({ lines: [host], refusal: false })
    expect(reportViolations(write, { failed: true, output: 'Read-only file system' })).toEqual({ lines: write, refusal: true })
    expect(reportViolations(write, { failed: true, output: '1 test failed' })).toEqual({ lines: [], refusal: false })
    expect(reportViolations(write, { failed: false, output: 'Read-only file system' })).toEqual({ lines: [], refusal: false })
  })

  it("always reports a git file the guard removed, although the command worked", () => {
    const removed = 'deny write /p/.git/hooks/pre-commit (removed: it would send git outside the sandbox to another folder)'
    const stuck = 'deny write /p/.git/config.worktree (could not be removed: EBUSY; delete it before running git)'
    expect(reportViolations([removed, ...write], { failed: false, output: 'ok' })).toEqual({ lines: [removed], refusal: false })
    expect(reportViolations([stuck], { failed: false, output: 'ok' })).toEqual({ lines: [stuck], refusal: false })
  })

  it('reads the lines of the library block', () => {
    expect(violationLines('err\n<sandbox_violations>\ndeny openat /x\ndeny mkdir /y\n</sandbox_violations>')).toEqual(['deny openat /x', 'deny mkdir /y'])
    expect(violationLines('no block')).toEqual([])
  })
})
