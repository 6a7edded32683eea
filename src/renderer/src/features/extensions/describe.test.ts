import { describe, expect, it } from 'vitest'
import { problemsOf, runOutcome, tokens } from './describe'

describe('the Extensions view in words', () => {
  it('sorts problems by the part of the view they belong to', () => {
    const problems = [
      { file: '/p/.claude/skills/broken/SKILL.md', level: 'error' as const, message: 'bad YAML' },
      { file: '/home/u/.claude/commands/x.md', level: 'error' as const, message: 'bad' },
      { file: '/p/.mcp.json', level: 'error' as const, message: 'not JSON' },
      { server: 'gh', level: 'error' as const, message: 'has a url but no type' },
    ]
    expect(problemsOf(problems, 'skills').map((problem) => problem.message)).toEqual(['bad YAML'])
    expect(problemsOf(problems, 'commands').map((problem) => problem.message)).toEqual(['bad'])
    expect(problemsOf(problems, 'mcp').map((problem) => problem.message)).toEqual(['not JSON', 'has a url but no type'])
  })

  it('says how a hook run ended and what tools cost', () => {
    expect(runOutcome({ exitCode: 0, timedOut: false })).toBe('exit 0')
    expect(runOutcome({ exitCode: 2, timedOut: false })).toBe('exit 2 (blocks)')
    expect(runOutcome({ exitCode: null, timedOut: true })).toBe('timed out')
    expect(runOutcome({ exitCode: null, timedOut: false, error: 'spawn failed' })).toBe('did not run: spawn failed')
    expect(tokens(12345)).toBe('12,345 tokens')
    expect(tokens(1)).toBe('1 token')
  })
})
