import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { decide } from '../decide/decide'
import { makeTempProject, type TempProject } from '../../../../test/support/governance'
import { PLACEHOLDER_IGNORE_FILE, PLACEHOLDER_IGNORE_TEXT } from '../../base/placeholder-folder'
import { loadSettings } from './load'

let project: TempProject | undefined
afterEach(() => project?.cleanup())

const write = (file: string, data: unknown) => {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data))
}

describe('loadSettings', () => {
  it('merges list keys across every source, scalars from the highest', () => {
    project = makeTempProject({ permissions: { allow: ['Bash(a)'], defaultMode: 'plan' } })
    const managed = join(project.base, 'managed.json')
    write(managed, { permissions: { deny: ['Bash(m)'] } })
    write(join(project.root, '.claude', 'settings.local.json'), { permissions: { allow: ['Bash(l)'], defaultMode: 'acceptEdits' } })
    write(join(project.sousHome, 'settings.json'), { permissions: { allow: ['Read(~/notes/**)'], ask: ['Bash(u)'] } })
    const { settings, diagnostics } = loadSettings(project.root, { projectTrust: 'assume', managedPath: managed, sousHome: project.sousHome, home: project.home, cli: { allowedTools: ['Bash(c)'] } })
    expect(diagnostics).toEqual([])
    expect(settings.rules.allow.map((r) => `${r.origin.source}:${r.origin.text}`)).toEqual(['cli:Bash(c)', 'local:Bash(l)', 'project:Bash(a)', 'user:Read(~/notes/**)'])
    expect(settings.rules.deny.map((r) => r.origin.source)).toEqual(['managed'])
    expect(settings.rules.ask.map((r) => r.origin.file)).toEqual([join(project.sousHome, 'settings.json')])
    expect(settings.defaultMode).toBe('acceptEdits')
  })

  it('warns about hook events Sous does not fire, and keeps the hooks', () => {
    project = makeTempProject({ hooks: { PreCompct: [{ hooks: [{ type: 'command', command: 'true' }] }], Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } })
    // A trusted folder: until then its hooks are left out (and the trust step says so).
    const { settings, diagnostics } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
    expect(diagnostics).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringContaining('"PreCompct" is not a hook event') })])
    expect(settings.hooks.map((h) => h.event)).toEqual(['PreCompct', 'Stop'])
  })

  it('no false warning for the events Sous fires (SubagentStart/Stop, PreCompact/PostCompact, the model switch); DirectoryAdded says why it never runs', () => {
    const hook = [{ hooks: [{ type: 'command', command: 'true' }] }]
    const fired = ['SubagentStart', 'SubagentStop', 'PreCompact', 'PostCompact', 'PreModelSwitch', 'PostModelSwitch']
    project = makeTempProject({ hooks: Object.fromEntries([...fired, 'DirectoryAdded'].map((event) => [event, hook])) })
    const { diagnostics } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
    expect(diagnostics.map((d) => d.message)).toEqual([expect.stringContaining('hooks.DirectoryAdded: Sous has no /add-dir')])
  })

  it('takes autoCompactWindow as a positive whole number, and refuses anything else with file and line, keeping the rest of the file', () => {
    project = makeTempProject({ permissions: { allow: ['Bash(ls *)'] } })
    const local = join(project.root, '.claude', 'settings.local.json')
    write(local, '{\n  "permissions": { "allow": ["Bash(pwd)"] },\n  "autoCompactWindow": -5\n}\n')
    write(join(project.sousHome, 'settings.json'), { autoCompactWindow: 120_000 })
    const { settings, diagnostics } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
    expect(diagnostics).toEqual([expect.objectContaining({ level: 'warning', file: local, line: 3, message: expect.stringContaining(`${local}:3:3: autoCompactWindow must be a positive whole number of tokens, not -5`) })])
    // The bad value is left out (the next source's applies) and the file is not broken.
    expect(settings.autoCompactWindow).toBe(120_000)
    expect(settings.broken).toEqual([])
    expect(settings.rules.allow.map((rule) => rule.origin.text)).toContain('Bash(pwd)')
    for (const bad of ['200000', 0, 1.5]) {
      write(local, { autoCompactWindow: bad })
      write(join(project.sousHome, 'settings.json'), {})
      const again = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
      expect(again.settings.autoCompactWindow).toBeUndefined()
      expect(again.diagnostics).toHaveLength(1)
    }
  })

  it("reads the sandbox's placeholder folder at a settings path as no file, and any other folder as a broken one", () => {
    project = makeTempProject({ permissions: { allow: ['Bash(a)'] } })
    const local = join(project.root, '.claude', 'settings.local.json')
    mkdirSync(local, { recursive: true })
    writeFileSync(join(local, PLACEHOLDER_IGNORE_FILE), PLACEHOLDER_IGNORE_TEXT)
    const options = { projectTrust: 'assume' as const, sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') }
    expect(loadSettings(project.root, options).diagnostics).toEqual([])
    writeFileSync(join(local, 'other'), 'x')
    expect(loadSettings(project.root, options).settings.broken).not.toEqual([])
  })

  it('fails closed on a JSON syntax error, with file, line and column', async () => {
    project = makeTempProject({ permissions: { allow: ['Bash(ls *)'] } })
    const local = join(project.root, '.claude', 'settings.local.json')
    write(local, '{\n  "permissions": {\n    "allow": ["Bash(*)"],\n  }\n}\n')
    const { settings, diagnostics } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
    expect(diagnostics).toHaveLength(1)
    expect(diagnostics[0]).toMatchObject({ file: local, level: 'error', line: 4, column: 3 })
    expect(diagnostics[0]?.message).toContain(`${local}:4:3`)
    const d = await decide({ tool: { name: 'Bash', isReadOnly: () => false }, input: { command: 'ls' }, mode: 'default', settings, cwd: project.root, projectRoot: project.root })
    expect(d.behavior).toBe('ask')
    expect(d.explanation).toMatchObject({ kind: 'settings-error', file: local })
  })

  it('fails closed on a schema error but keeps the deny rules it can read', async () => {
    project = makeTempProject({ permissions: { allow: 42, deny: ['Bash(rm *)'] } })
    const { settings, diagnostics } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
    expect(diagnostics[0]?.message).toMatch(/permissions\.allow/)
    expect(diagnostics[0]?.line).toBe(3)
    const run = (command: string) => decide({ tool: { name: 'Bash', isReadOnly: () => false }, input: { command }, mode: 'bypassPermissions', settings, cwd: project!.root, projectRoot: project!.root })
    expect((await run('rm x')).behavior).toBe('deny')
    expect((await run('npm test')).behavior).toBe('ask')
  })

  it('turns an unparseable deny rule into an ask for its tool', async () => {
    project = makeTempProject({ permissions: { deny: ['Bash(rm *'], allow: ['Bash(ls *)'] } })
    const { settings, diagnostics } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
    expect(diagnostics[0]?.level).toBe('error')
    const d = await decide({ tool: { name: 'Bash', isReadOnly: () => false }, input: { command: 'ls' }, mode: 'default', settings, cwd: project.root, projectRoot: project.root })
    expect(d.behavior).toBe('ask')
  })

  it('honours managed-only locks', async () => {
    project = makeTempProject({ permissions: { allow: ['Bash(npm *)'] } })
    const managed = join(project.base, 'managed.json')
    write(managed, { allowManagedPermissionRulesOnly: true, permissions: { disableBypassPermissionsMode: 'disable' } })
    const { settings } = loadSettings(project.root, { projectTrust: 'assume', managedPath: managed, sousHome: project.sousHome, home: project.home })
    expect(settings.rules.allow).toEqual([])
    const d = await decide({ tool: { name: 'Bash', isReadOnly: () => false }, input: { command: 'npm i' }, mode: 'bypassPermissions', settings, cwd: project.root, projectRoot: project.root })
    expect(d.behavior).toBe('ask')
  })
})

describe('permission mode names (Claude Code 2.1.328)', () => {
  it('reads manual as default and accepts auto; disableAutoMode is read at either level', () => {
    project = makeTempProject({ permissions: { defaultMode: 'manual', allow: ['Bash(a)'] } })
    const opts = { projectTrust: 'assume' as const, managedPath: join(project.base, 'm.json'), sousHome: project.sousHome, home: project.home }
    expect(loadSettings(project.root, opts)).toMatchObject({ settings: { defaultMode: 'default', disableAutoMode: false, broken: [] }, diagnostics: [] })
    write(join(project.root, '.claude', 'settings.json'), { permissions: { defaultMode: 'acceptEdits', disableAutoMode: 'disable' } })
    expect(loadSettings(project.root, opts).settings).toMatchObject({ defaultMode: 'acceptEdits', disableAutoMode: true })
    // auto from the user's own settings is a starting mode.
    write(join(project.root, '.claude', 'settings.json'), {})
    write(join(project.sousHome, 'settings.json'), { permissions: { defaultMode: 'auto' } })
    expect(loadSettings(project.root, opts).settings.defaultMode).toBe('auto')
    write(join(project.root, '.claude', 'settings.json'), { disableAutoMode: 'disable' })
    expect(loadSettings(project.root, opts).settings.disableAutoMode).toBe(true)
  })

  it('an unknown mode is one warning on that key with its line; the rest of the file still applies', () => {
    project = makeTempProject()
    const file = join(project.root, '.claude', 'settings.json')
    write(file, '{\n  "permissions": {\n    "allow": ["Bash(npm test)"],\n    "defaultMode": "yolo"\n  }\n}\n')
    const { settings, diagnostics } = loadSettings(project.root, { projectTrust: 'assume', managedPath: join(project.base, 'm.json'), sousHome: project.sousHome, home: project.home })
    expect(settings.broken).toEqual([])
    expect(settings.defaultMode).toBeUndefined()
    expect(settings.rules.allow.map((r) => r.origin.text)).toEqual(['Bash(npm test)'])
    expect(diagnostics).toHaveLength(1)
    expect(diagnostics[0]).toMatchObject({ level: 'warning', file, line: 4 })
    expect(diagnostics[0]!.message).toContain(`${file}:4:`)
    expect(diagnostics[0]!.message).toContain('"yolo" is not a permission mode')
  })

  it("a repository's own files never start a session in auto or bypassPermissions, trusted or not: one warning with its line", () => {
    for (const mode of ['auto', 'bypassPermissions']) {
      project = makeTempProject({ permissions: { defaultMode: mode } })
      for (const projectTrust of ['check', 'assume'] as const) {
        const { settings, diagnostics } = loadSettings(project.root, { projectTrust, managedPath: join(project.base, 'm.json'), sousHome: project.sousHome, home: project.home })
        expect(settings.defaultMode).toBeUndefined()
        expect(diagnostics).toEqual([expect.objectContaining({ level: 'warning', line: 3, message: expect.stringContaining(`permissions.defaultMode "${mode}" is ignored`) })])
      }
      project.cleanup()
    }
    // An untrusted project's acceptEdits waits for the trust step.
    project = makeTempProject({ permissions: { defaultMode: 'acceptEdits' } })
    const { settings } = loadSettings(project.root, { managedPath: join(project.base, 'm.json'), sousHome: project.sousHome, home: project.home })
    expect(settings.defaultMode).toBeUndefined()
    expect(settings.trust.ignored.join()).toContain('defaultMode acceptEdits')
  })
})

describe('Claude Code behaviour keys', () => {
  it('bashOutputMaxChars is clamped to 4000–128000; promptCacheTtl is read; bad values are warnings, the highest file wins', () => {
    project = makeTempProject({ bashOutputMaxChars: 500_000, promptCacheTtl: '1h' })
    const opts = { projectTrust: 'assume' as const, managedPath: join(project.base, 'm.json'), sousHome: project.sousHome, home: project.home }
    expect(loadSettings(project.root, opts).settings.behaviour).toEqual({ bashOutputMaxChars: 128_000, promptCacheTtl: '1h' })
    write(join(project.root, '.claude', 'settings.local.json'), { bashOutputMaxChars: 10, promptCacheTtl: 'forever' })
    const { settings, diagnostics } = loadSettings(project.root, opts)
    expect(settings.behaviour).toEqual({ bashOutputMaxChars: 4_000, promptCacheTtl: '1h' })
    expect(settings.broken).toEqual([])
    expect(diagnostics.map((d) => `${d.level} ${d.message.split(' ')[0]}`)).toEqual(['warning promptCacheTtl'])
  })

  it('crossSessionMessages: the user\'s settings choose; a repository\'s settings only make it stricter; a bad value is a warning', () => {
    project = makeTempProject({ crossSessionMessages: 'accept' })
    const opts = { projectTrust: 'assume' as const, managedPath: join(project.base, 'm.json'), sousHome: project.sousHome, home: project.home }
    // The project's own "accept" loosens nothing: it is no user choice.
    expect(loadSettings(project.root, opts).settings.behaviour).toEqual({ crossSessionMessagesFloor: 'accept' })
    write(join(project.sousHome, 'settings.json'), { crossSessionMessages: 'refuse' })
    expect(loadSettings(project.root, opts).settings.behaviour).toEqual({ crossSessionMessages: 'refuse', crossSessionMessagesFloor: 'accept' })
    write(join(project.root, '.claude', 'settings.local.json'), { crossSessionMessages: 'hold' })
    write(join(project.sousHome, 'settings.json'), { crossSessionMessages: 'sometimes' })
    const { settings, diagnostics } = loadSettings(project.root, opts)
    expect(settings.behaviour).toEqual({ crossSessionMessagesFloor: 'hold' })
    expect(diagnostics.map((d) => d.message)).toContain('crossSessionMessages "sometimes" is ignored: expected "accept", "hold" or "refuse"')
  })
})
