import { existsSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import { SMALL_FAST_MODEL } from '../main/services/model/ask'

// Claude Code 2.1.328's mode names in `sous -p`: `manual` (the old `default`) and `auto` (its
// classifier: print-auto.test.ts). Real tools and settings files, the scripted server.
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })
const sous = (args: string[]) => headless.sous(args)

const touchThenAnswer = () => [toolUseReply('Bash', { command: 'touch made.txt' }, { id: 'toolu_touch' }), textReply('Tried.')]

describe('sous -p permission mode names', () => {
  it('--permission-mode manual is default: a command that changes files is denied, reads run', async () => {
    server.setScenario(touchThenAnswer())
    const { code, stdout, stderr } = await sous(['--permission-mode', 'manual', '--output-format', 'json', 'Touch'])
    expect(code).toBe(0)
    expect((JSON.parse(stdout) as { permission_denials: Array<{ tool_use_id: string }> }).permission_denials.map((d) => d.tool_use_id)).toEqual(['toolu_touch'])
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(false)
    expect(stderr).not.toContain('auto mode')
  })

  it('--permission-mode auto asks its classifier, and what it asks about is denied as in manual', async () => {
    server.setScenario([toolUseReply('Bash', { command: 'touch made.txt' }, { id: 'toolu_touch' }), { ...textReply('ask: the user did not ask for a file'), forModel: SMALL_FAST_MODEL }, textReply('Tried.')])
    const { code, stdout, stderr } = await sous(['--permission-mode', 'auto', '--output-format', 'json', 'Touch'])
    expect(code).toBe(0)
    expect((JSON.parse(stdout) as { permission_denials: unknown[] }).permission_denials).toHaveLength(1)
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(false)
    expect(stderr).not.toContain('no classifier')
  })

  it('a settings file with "defaultMode": "manual" or "auto" is not broken: its allow rules apply', async () => {
    for (const mode of ['manual', 'auto', 'no-such-mode']) {
      await mkdir(join(headless.project, '.claude'), { recursive: true })
      await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ permissions: { defaultMode: mode, allow: ['Bash(touch made.txt)'] } }))
      server.setScenario(touchThenAnswer())
      const { code, stdout } = await sous(['--output-format', 'json', 'Touch'])
      expect(code).toBe(0)
      expect((JSON.parse(stdout) as { permission_denials: unknown[] }).permission_denials).toEqual([])
      expect(existsSync(join(headless.project, 'made.txt'))).toBe(true)
      await rm(join(headless.project, 'made.txt'))
    }
  })

  it('an unknown --permission-mode is a usage error naming the accepted names', async () => {
    const { code, stderr } = await sous(['--permission-mode', 'yolo', 'Hi'])
    expect(code).toBe(2)
    expect(stderr).toContain('manual, default, acceptEdits, plan, auto, bypassPermissions, dontAsk')
  })
})
