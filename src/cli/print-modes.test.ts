import { existsSync } from 'node:fs'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'

// Claude Code 2.1.328's mode names in `sous -p`: `manual` (the old `default`) and `auto`, which asks
// as manual does until its classifier exists. Real tools and settings files, the scripted server.
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

  it('--permission-mode auto never allows more than manual, and says so once', async () => {
    server.setScenario(touchThenAnswer())
    const { code, stdout, stderr } = await sous(['--permission-mode', 'auto', '--output-format', 'json', 'Touch'])
    expect(code).toBe(0)
    expect((JSON.parse(stdout) as { permission_denials: unknown[] }).permission_denials).toHaveLength(1)
    expect(existsSync(join(headless.project, 'made.txt'))).toBe(false)
    expect(stderr.match(/auto mode's classifier is not available in this build; asking as in manual mode/g)).toHaveLength(1)
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
