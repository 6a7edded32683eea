import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { startGateSandbox } from '../../../../test/support/gate-sandbox'
import { decide } from '../decide/decide'

/**
 * What a trusted configuration runs or loads outside the sandbox is read-only inside it: a
 * sandboxed command cannot rewrite a hook's script (which the hook would then run unsandboxed),
 * the project's skills, agents, commands and hooks folders, its instruction files or `.envrc`.
 * Started the way the host starts it, from the project's own (obeyed) settings; real bubblewrap.
 */

const base = sandboxScratch('.sous-trusted-config-')
const project = join(base, 'project')
const sousHome = join(base, 'sous-home')
const files: Record<string, string> = {
  '.claude/hooks/guard.sh': 'echo guard\n',
  'scripts/check.py': 'print("check")\n',
  'tools/fmt.sh': 'echo fmt\n',
  '.claude/skills/deploy/SKILL.md': '---\nname: deploy\n---\nDeploy.\n',
  '.claude/agents/helper.md': '---\nname: helper\n---\nHelp.\n',
  'CLAUDE.md': 'Be careful.\n',
  'pkg/CLAUDE.md': 'Package notes.\n',
  '.envrc': 'export A=1\n',
}
for (const [path, text] of Object.entries(files)) {
  mkdirSync(join(project, path, '..'), { recursive: true })
  writeFileSync(join(project, path), text)
}
const hooks = {
  PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh' }] }],
  PostToolUse: [{ hooks: [{ type: 'command', command: 'python3 scripts/check.py --strict && ./tools/fmt.sh' }, { type: 'command', command: 'bash ./tools/not-yet.sh' }] }],
}
writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ hooks }))
const { settings, unavailable, sandbox } = await startGateSandbox({ base, project, sousHome, off: 'the settings turn the sandbox off' })

describe('trusted configuration in the sandbox', () => {
  it('knows the scripts the hooks run', () => {
    expect(settings.hookScripts.sort()).toEqual(['.claude/hooks/guard.sh', 'scripts/check.py', 'tools/fmt.sh', 'tools/not-yet.sh'].map((path) => join(project, path)).sort())
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('refuses to rewrite what the hooks run and what the project loads', unavailable), async () => {
    for (const path of Object.keys(files)) {
      const r = await sandbox.run(`echo planted >> ${path}`, { cwd: project })
      expect(r.exitCode, path).not.toBe(0)
      expect(readFileSync(join(project, path), 'utf8'), path).toBe(files[path])
    }
    // New files in the protected folders, and the hook script that does not exist yet.
    await sandbox.run('echo x > .claude/hooks/new.sh; echo x > .claude/skills/new.md; echo x > tools/not-yet.sh', { cwd: project })
    for (const path of ['.claude/hooks/new.sh', '.claude/skills/new.md', 'tools/not-yet.sh']) expect(existsSync(join(project, path)), path).toBe(false)
    // Everything else in the project stays writable.
    const ok = await sandbox.run('echo fine > scripts/other.py && echo fine > pkg/notes.md', { cwd: project })
    expect(ok.exitCode, ok.stderr).toBe(0)
  })

  it('asks before an edit of a script a hook runs, in every mode', async () => {
    const d = await decide({ tool: { name: 'Edit', isReadOnly: () => false }, input: { file_path: join(project, 'scripts', 'check.py'), old_string: 'check', new_string: 'x' }, mode: 'acceptEdits', settings, cwd: project, projectRoot: project })
    expect(d).toMatchObject({ behavior: 'ask', explanation: { kind: 'protected-path', detail: expect.stringContaining('script a hook runs') } })
  })
})
