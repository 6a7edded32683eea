import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'

// `sous -p` under the user's and the project's rules: settings files and the command-line flags,
// with real tools (Bash on a real PTY) against the scripted server.
const server = useModelServer()

const headless = useHeadless(server, { inheritPath: true })
const sous = (args: string[]) => headless.sous(args)

describe('sous -p with governance (settings files and flags)', () => {
  async function settings(name: string, content: unknown): Promise<void> {
    const { mkdir } = await import('node:fs/promises')
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    await writeFile(join(headless.project, '.claude', name), JSON.stringify(content))
  }

  it('default mode runs what an allow rule in .claude/settings.json covers, and denies the rest', async () => {
    await settings('settings.json', { permissions: { allow: ['Bash(touch made-by-rule.txt)'] } })
    server.setScenario([
      toolUseReply('Bash', { command: 'touch made-by-rule.txt' }, { id: 'toolu_allowed' }),
      toolUseReply('Bash', { command: 'touch not-allowed.txt' }, { id: 'toolu_denied' }),
      textReply('Done.'),
    ])
    const { code, stdout } = await sous(['--output-format', 'json', 'Make the files'])
    expect(code).toBe(0)
    const result = JSON.parse(stdout) as { permission_denials: Array<Record<string, unknown>> }
    expect(result.permission_denials.map((d) => d['tool_use_id'])).toEqual(['toolu_denied'])
    const { existsSync } = await import('node:fs')
    expect(existsSync(join(headless.project, 'made-by-rule.txt'))).toBe(true)
    expect(existsSync(join(headless.project, 'not-allowed.txt'))).toBe(false)
  })

  it('a deny rule wins even in bypassPermissions; a chained command needs every part allowed', async () => {
    await settings('settings.local.json', { permissions: { deny: ['Bash(rm *)'], allow: ['Bash(echo *)'] } })
    await writeFile(join(headless.project, 'keep.txt'), 'keep\n')
    server.setScenario([
      toolUseReply('Bash', { command: 'rm keep.txt' }, { id: 'toolu_rm' }),
      toolUseReply('Bash', { command: 'echo ok && rm keep.txt' }, { id: 'toolu_chain' }),
      textReply('Could not.'),
    ])
    const { stdout } = await sous(['--permission-mode', 'bypassPermissions', '--output-format', 'json', 'Delete it'])
    const result = JSON.parse(stdout) as { permission_denials: Array<Record<string, unknown>> }
    expect(result.permission_denials.map((d) => d['tool_use_id'])).toEqual(['toolu_rm', 'toolu_chain'])
    expect(await readFile(join(headless.project, 'keep.txt'), 'utf8')).toBe('keep\n')
  })

  it('--allowedTools and --disallowedTools act as command-line rules', async () => {
    server.setScenario([
      toolUseReply('Bash', { command: 'touch by-flag.txt' }, { id: 'toolu_flag' }),
      toolUseReply('Read', { file_path: join(headless.project, 'by-flag.txt') }, { id: 'toolu_read' }),
      textReply('Done.'),
    ])
    const { stdout } = await sous(['--output-format', 'json', '--allowedTools', 'Bash(touch *)', '--disallowedTools', 'Read', '--', 'Go'])
    const result = JSON.parse(stdout) as { permission_denials: Array<Record<string, unknown>> }
    expect(result.permission_denials.map((d) => d['tool_use_id'])).toEqual(['toolu_read'])
    const { existsSync } = await import('node:fs')
    expect(existsSync(join(headless.project, 'by-flag.txt'))).toBe(true)
  })
})
