import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import { makeRepository } from '../../test/support/git-repo'

// `sous -p`'s denials name the rule and the source it came from — each file, `--settings` (a file
// or JSON text) and `--disallowedTools` — and a tool's own permission check (ExitWorktree's) asks
// where the general rules would not, while an allow rule still outranks it. Real PTY, real git.
vi.setConfig({ testTimeout: 90_000 })
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })

interface Denial {
  tool_name: string
  tool_use_id: string
  message: string
}

async function deniedTouch(args: string[]): Promise<Denial[]> {
  server.setScenario([toolUseReply('Bash', { command: 'touch denied.txt' }, { id: 'toolu_touch' }), textReply('Done.')])
  const run = await headless.sous(['--output-format', 'json', ...args, 'Touch it.'])
  expect(run.code).toBe(0)
  expect(existsSync(join(headless.project, 'denied.txt'))).toBe(false)
  return (JSON.parse(run.stdout) as { permission_denials: Denial[] }).permission_denials
}

const DENY = { permissions: { deny: ['Bash(touch *)'] } }

describe('sous -p names where a denying rule comes from', () => {
  it('user, project and local settings files', async () => {
    const files: Array<[string, string]> = [
      [join(headless.home, 'settings.json'), 'user settings'],
      [join(headless.project, '.claude', 'settings.json'), 'project settings'],
      [join(headless.project, '.claude', 'settings.local.json'), 'local project settings'],
    ]
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    for (const [file, label] of files) {
      await writeFile(file, JSON.stringify(DENY))
      const [denial] = await deniedTouch([])
      expect(denial?.message).toBe(`Permission to use Bash has been denied by the rule Bash(touch *) from ${label} (${file}).`)
      await writeFile(file, '{}')
    }
  })

  it('--settings as a file and as JSON text, and --disallowedTools', async () => {
    const file = join(headless.home, 'extra-settings.json')
    await writeFile(file, JSON.stringify(DENY))
    expect((await deniedTouch(['--settings', file]))[0]?.message).toBe(`Permission to use Bash has been denied by the rule Bash(touch *) from --settings (${file}).`)
    expect((await deniedTouch(['--settings', JSON.stringify(DENY)]))[0]?.message).toBe('Permission to use Bash has been denied by the rule Bash(touch *) from --settings.')
    expect((await deniedTouch(['--disallowedTools', 'Bash(touch *)']))[0]?.message).toBe('Permission to use Bash has been denied by the rule Bash(touch *) from --disallowedTools.')
  })

  it('--settings that cannot be read or parsed stops the run before any request', async () => {
    server.setScenario([])
    const missing = await headless.sous(['--settings', join(headless.home, 'nope.json'), 'Hi.'])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain(`--settings: cannot read ${join(headless.home, 'nope.json')}`)
    const bad = await headless.sous(['--settings', '{"permissions": ', 'Hi.'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--settings: the JSON text does not parse')
    expect(server.requests).toHaveLength(0)
  })

  it('a --settings file that breaks fails closed: nothing it would allow runs', async () => {
    const file = join(headless.home, 'extra-settings.json')
    await writeFile(file, '{"permissions": {"allow": ["Bash(touch *)"]}')
    const [denial] = await deniedTouch(['--settings', file, '--allowedTools', 'Bash(touch *)'])
    expect(denial?.message).toContain(`settings file ${file}`)
  })
})

describe("a tool's own permission check", () => {
  it('asks for ExitWorktree remove with discard_changes (passthrough otherwise), and an allow rule outranks it', async () => {
    makeRepository(headless.project, { 'a.txt': 'a\n' })
    server.setScenario([
      toolUseReply('EnterWorktree', { name: 'w' }, { id: 'toolu_enter' }),
      toolUseReply('ExitWorktree', { action: 'remove', discard_changes: true }, { id: 'toolu_discard' }),
      toolUseReply('ExitWorktree', { action: 'keep' }, { id: 'toolu_keep' }),
      textReply('Stopped.'),
    ])
    const first = await headless.sous(['--output-format', 'json', '--allowedTools', 'EnterWorktree', 'Try.'])
    const denials = (JSON.parse(first.stdout) as { permission_denials: Denial[] }).permission_denials
    expect(denials.map((denial) => denial.tool_use_id)).toEqual(['toolu_discard', 'toolu_keep'])
    // The tool's own ask, named as such (and not one auto mode's classifier may lift)…
    expect(denials[0]!.message).toContain("ExitWorktree's own check: removing the worktree with discard_changes deletes its uncommitted files and unmerged commits")
    // …and its passthrough: the general rules' default.
    expect(denials[1]!.message).toContain('ExitWorktree needs approval (ExitWorktree needs approval)')
    server.setScenario([
      toolUseReply('EnterWorktree', { name: 'v' }, { id: 'toolu_enter' }),
      toolUseReply('ExitWorktree', { action: 'remove', discard_changes: true }, { id: 'toolu_discard' }),
      textReply('Removed.'),
    ])
    const second = await headless.sous(['--output-format', 'json', '--allowedTools', 'EnterWorktree', '--allowedTools', 'ExitWorktree', 'Try.'])
    expect((JSON.parse(second.stdout) as { permission_denials: Denial[] }).permission_denials).toEqual([])
    expect(existsSync(join(headless.project, '.claude', 'worktrees', 'v'))).toBe(false)
  })
})
