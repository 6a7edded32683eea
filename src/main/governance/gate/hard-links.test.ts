import { existsSync, linkSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { startGateSandbox } from '../../../../test/support/gate-sandbox'
import { decide } from '../decide/decide'

/**
 * A Read deny rule that names a file covers every hard link to it (issue 25, point 9): in the
 * gate (Read tool, Bash) by device and inode, and in the sandbox by denying the file's other names.
 */

const base = sandboxScratch('.sous-hard-links-')
const project = join(base, 'project')
const sousHome = join(base, 'sous-home')
mkdirSync(join(project, 'notes'), { recursive: true })
mkdirSync(join(project, '.claude'))
writeFileSync(join(project, 'secret.txt'), 'HARD-LINKED-SECRET\n')
linkSync(join(project, 'secret.txt'), join(project, 'notes', 'copy.txt'))
writeFileSync(join(project, 'notes', 'plain.txt'), 'plain\n')
writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(./secret.txt)'] } }))
const { settings, unavailable, sandbox } = await startGateSandbox({ base, project, sousHome, off: 'the sandbox is off' })

describe('hard links to a denied file', () => {
  it('are denied to the Read tool and to Bash', async () => {
    const read = await decide({ tool: { name: 'Read', isReadOnly: () => true }, input: { file_path: join(project, 'notes', 'copy.txt') }, mode: 'default', settings, cwd: project, projectRoot: project })
    expect(read.behavior).toBe('deny')
    const bash = await decide({ tool: { name: 'Bash', isReadOnly: () => true }, input: { command: 'cat notes/copy.txt' }, mode: 'bypassPermissions', settings, cwd: project, projectRoot: project })
    expect(bash.behavior).toBe('deny')
    const plain = await decide({ tool: { name: 'Read', isReadOnly: () => true }, input: { file_path: join(project, 'notes', 'plain.txt') }, mode: 'default', settings, cwd: project, projectRoot: project })
    expect(plain.behavior).toBe('allow')
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('are unreadable in the sandbox', unavailable), async () => {
    const r = await sandbox.run('cat notes/copy.txt; cat notes/plain.txt', { cwd: project })
    expect(r.stdout).not.toContain('HARD-LINKED-SECRET')
    expect(r.stdout).toContain('plain')
    // Nor can a command give the file a new name.
    await sandbox.run('ln secret.txt notes/new.txt', { cwd: project })
    const made = join(project, 'notes', 'new.txt')
    expect(existsSync(made) ? readFileSync(made, 'utf8') : '').not.toContain('HARD-LINKED-SECRET')
  })
})
