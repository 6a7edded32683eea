import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { startGateSandbox } from '../../../../test/support/gate-sandbox'
import { decide } from '../decide/decide'
import type { PermissionMode } from '../types'
import { readDenyPatterns } from './gate-sandbox'

/**
 * Recursive readers that follow symlinks are judged by where the links lead (issue 25, point 4),
 * and the sandbox itself enforces the Read deny rules. A real tree with real links, real bubblewrap.
 */

const base = sandboxScratch('.sous-link-reach-')
const project = join(base, 'project')
const outside = join(base, 'outside')
const sousHome = join(base, 'sous-home')
for (const dir of ['docs', 'other', 'secrets', 'plain', '.claude']) mkdirSync(join(project, dir), { recursive: true })
mkdirSync(outside)
writeFileSync(join(outside, 'private.txt'), 'OUTSIDE-SECRET\n')
writeFileSync(join(project, 'secrets', 'key.txt'), 'DENIED-SECRET\n')
writeFileSync(join(project, 'docs', 'a.md'), 'a\n')
writeFileSync(join(project, 'plain', 'b.md'), 'b\n')
symlinkSync(outside, join(project, 'docs', 'out'))
symlinkSync(join(project, 'secrets'), join(project, 'plain', 'keys'))
writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(./secrets/**)'] } }))
const { settings, unavailable, sandbox } = await startGateSandbox({ base, project, sousHome, off: 'the sandbox is off' })

const decideBash = (command: string, mode: PermissionMode = 'default') => decide({ tool: { name: 'Bash', isReadOnly: () => true }, input: { command }, mode, settings, cwd: project, projectRoot: project })

describe('recursive readers and the links below what they read', () => {
  it.for(['diff -r docs other', 'diff docs other', 'du -L docs', 'ls -RL docs', 'ls -lRL docs'])('asks when %s would follow a link out of the project', async (command) => {
    expect(await decideBash(command)).toMatchObject({ behavior: 'ask', explanation: { kind: 'outside-project', detail: expect.stringContaining('symlink') } })
  })

  it.for(['diff -r plain other', 'du -L plain'])('asks in every mode when %s would follow a link into a denied folder', async (command) => {
    for (const mode of ['default', 'acceptEdits', 'bypassPermissions'] as const) {
      expect(await decideBash(command, mode), mode).toMatchObject({ behavior: 'ask', explanation: { kind: 'reaches-denied', detail: expect.stringContaining('secrets') } })
    }
  })

  it.for(['grep -r a docs', 'rg a docs', 'find docs -name "*.md"', 'ls -R docs', 'du -s docs', 'diff --no-dereference -r docs other', 'git grep a -- docs'])('keeps %s read-only: it does not follow the links it meets', async (command) => {
    expect((await decideBash(command)).behavior).toBe('allow')
  })

  it('turns Read deny rules into the sandbox read denies', () => {
    expect(readDenyPatterns(settings, project)).toEqual([join(project, 'secrets/**')])
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('keeps what a Read deny rule covers unreadable inside the sandbox, through a link too', unavailable), async () => {
    const direct = await sandbox.run('cat secrets/key.txt', { cwd: project })
    expect(direct.stdout).not.toContain('DENIED-SECRET')
    const through = await sandbox.run('diff -r plain other; cat plain/keys/key.txt', { cwd: project })
    expect(through.stdout).not.toContain('DENIED-SECRET')
    const fine = await sandbox.run('cat plain/b.md', { cwd: project })
    expect(fine.stdout).toContain('b')
  })
})
