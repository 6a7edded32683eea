import { beforeAll, describe, expect, it } from 'vitest'
import { analyzeBashSync } from '../bash/analyze'
import { loadBashAnalyzer } from '../bash/analyzer'
import { matchBashRule } from '../decide/match'
import { parseRule } from '../rules/parse'
import type { ApprovalRequest } from './queue'
import { checkRule } from './check-rule'
import { suggestRules } from './suggest'

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

describe('the rule an approval offers for a quoted command', () => {
  const where = { cwd: '/p', projectRoot: '/p', home: '/h' }
  const asked = (command: string): ApprovalRequest => ({
    id: 'r',
    toolName: 'Bash',
    input: { command },
    preview: { kind: 'command', command, subcommands: analyzeBashSync(command, where).commands.map((c) => c.text), problems: [] },
    explanation: { kind: 'default', detail: 'asks' },
    suggestions: suggestRules('Bash', { command }, where),
  })
  /** Whether the gate's allow matching lets `rule` through for every command of `command` that needs one. */
  const gateAllows = (rule: string, command: string) => {
    const parsed = parseRule(rule)
    if (!parsed.ok) throw new Error(parsed.error)
    const loaded = { parsed: parsed.rule, origin: { text: rule, behavior: 'allow' as const, source: 'session' as const }, sourceRoot: '/p' }
    const analysis = analyzeBashSync(command, where)
    return analysis.commands.every((c, index) => c.argv.length === 0 || matchBashRule([loaded], c, 'allow', analysis.verdicts[index]) !== undefined)
  }

  beforeAll(() => loadBashAnalyzer())

  it.each([
    ['touch "my file.txt"', ['Bash(touch "my file.txt")']],
    ["rm -rf 'build dir'", ["Bash(rm -rf 'build dir')"]],
    ['git commit -m "a b"', ['Bash(git commit *)']],
    ['git add . && git commit -m "a b"', ['Bash(git add *)', 'Bash(git commit *)']],
  ])('%s: the preview says the rules it saves allow it, and the gate agrees', (command, rules) => {
    const request = asked(command)
    // Claude Code's syntax: the command as written, not re-quoted.
    expect(request.suggestions).toEqual(rules)
    const check = checkRule(request, request.suggestions)
    expect(check).toMatchObject({ ok: true, covers: true, misses: [] })
    for (const rule of rules) if (rules.length === 1) expect(gateAllows(rule, command)).toBe(true)
  })

  it('matches an exact rule whichever way the words are quoted, as the gate does', () => {
    const request = asked('touch "my file.txt"')
    expect(checkRule(request, "Bash(touch 'my file.txt')")).toMatchObject({ covers: true, matches: ['touch "my file.txt"'] })
    expect(gateAllows("Bash(touch 'my file.txt')", 'touch "my file.txt"')).toBe(true)
    expect(gateAllows('Bash(touch "my file.txt")', 'touch "my file.txt"')).toBe(true)
    expect(checkRule(request, 'Bash(touch "other.txt")')).toMatchObject({ covers: false, misses: ['touch "my file.txt"'] })
  })

  it('does not let the text as written widen a rule past a wrapper or an assignment', () => {
    expect(gateAllows('Bash(timeout *)', 'timeout 5 rm -rf x')).toBe(false)
    expect(gateAllows('Bash(FOO=1 *)', 'FOO=1 rm -rf x')).toBe(false)
  })

  it('checks every rule of a compound command together: one alone leaves the other asking', () => {
    const request = asked('git add . && git commit -m "a b"')
    expect(checkRule(request, 'Bash(git add *)')).toMatchObject({ covers: false, misses: ['git commit -m "a b"'] })
  })
})
