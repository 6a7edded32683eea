import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { sandboxPlatformProblem, sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { BashSandbox } from './bash-sandbox'

/**
 * A home inside a writable folder (here the temp dir) gets its absent start-up files protected
 * while a sandboxed command runs; the placeholder must not break git (or anything else) running
 * outside the sandbox at the same moment. Real bubblewrap, real git.
 */

const base = sandboxScratch('.sous-home-placeholders-')
const project = join(base, 'project')
mkdirSync(project)
// Inside tmpdir(), which the sandbox makes writable: this is the case that needs placeholders.
const home = mkdtempSync(join(tmpdir(), 'sous-home-'))
const userSettings = join(home, '.claude', 'settings.json')
const started = await BashSandbox.start({ projectRoot: project, home, protectFiles: [userSettings] })
const unavailable = sandboxPlatformProblem() ?? (started.ok ? undefined : started.reason)
const sandbox = (started.ok ? started.sandbox : undefined) as BashSandbox
const outsideEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1' }

afterAll(async () => {
  await sandbox?.dispose()
  rmSync(base, { recursive: true, force: true })
  rmSync(home, { recursive: true, force: true })
})

async function whilePlaceholderIsUp(run: () => void): Promise<void> {
  const running = sandbox.run('sleep 1.5', { cwd: project })
  const deadline = Date.now() + 5000
  while (!existsSync(join(home, '.gitconfig')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  expect(existsSync(join(home, '.gitconfig'))).toBe(true)
  run()
  expect((await running).exitCode).toBe(0)
}

describe('placeholders for a home inside a writable folder', () => {
  it.skipIf(unavailable !== undefined)(skippedUnless('leave git outside the sandbox working while a command runs', unavailable), async () => {
    await whilePlaceholderIsUp(() => {
      expect(statSync(join(home, '.gitconfig')).isFile()).toBe(true)
      expect(() => execFileSync('git', ['config', '--list'], { env: outsideEnv, encoding: 'utf8', stdio: 'pipe' })).not.toThrow()
      // Settings readers outside see no settings, not a folder or bad JSON.
      expect(JSON.parse(readFileSync(userSettings, 'utf8'))).toEqual({})
    })
    // Nothing is left behind.
    expect(existsSync(join(home, '.gitconfig'))).toBe(false)
    expect(existsSync(join(home, '.claude'))).toBe(false)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('keep what git outside wrote meanwhile', unavailable), async () => {
    await whilePlaceholderIsUp(() => {
      execFileSync('git', ['config', '--global', 'user.name', 'Outside'], { env: outsideEnv, stdio: 'pipe' })
    })
    expect(readFileSync(join(home, '.gitconfig'), 'utf8')).toContain('Outside')
    rmSync(join(home, '.gitconfig'))
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('still refuse a command creating, replacing or removing them', unavailable), async () => {
    const r = await sandbox.run(
      [
        `printf '[alias]\\n\\tx = !id\\n' >> ${home}/.gitconfig`,
        `echo evil > ${home}/.bashrc`,
        `echo evil > ${home}/.x && mv -f ${home}/.x ${home}/.profile`,
        `rm -f ${home}/.zshrc`,
        `mkdir -p ${home}/.claude && echo '{"permissions":{"allow":["Bash"]}}' > ${userSettings}`,
        'true',
      ].join('; '),
      { cwd: project },
    )
    expect(r.exitCode).toBe(0)
    for (const name of ['.gitconfig', '.bashrc', '.profile', '.zshrc']) expect(existsSync(join(home, name)), name).toBe(false)
    expect(existsSync(userSettings)).toBe(false)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('protect a file that appears between two commands', unavailable), async () => {
    const project2 = join(project, 'sub')
    mkdirSync(project2, { recursive: true })
    expect((await sandbox.run('true', { cwd: project })).exitCode).toBe(0)
    // Written outside the sandbox between two commands.
    const hook = join(project, '.claude', 'settings.json')
    mkdirSync(join(project, '.claude'), { recursive: true })
    const { writeFileSync } = await import('node:fs')
    writeFileSync(hook, '{}\n')
    writeFileSync(join(project2, 'CLAUDE.md'), 'be nice\n')
    const r = await sandbox.run(`echo evil > ${hook}; echo evil > ${join(project2, 'CLAUDE.md')}; printf x >> ${home}/.gitconfig; mkdir -p ${project}/.vscode/x; true`, { cwd: project })
    expect(r.exitCode).toBe(0)
    expect(readFileSync(hook, 'utf8')).toBe('{}\n')
    expect(readFileSync(join(project2, 'CLAUDE.md'), 'utf8')).toBe('be nice\n')
    expect(existsSync(join(home, '.gitconfig'))).toBe(false)
    expect(existsSync(join(project, '.vscode'))).toBe(false)
    rmSync(join(project, '.claude'), { recursive: true })
    rmSync(project2, { recursive: true })
  })
})
