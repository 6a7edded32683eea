import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { startGateSandbox } from '../../../../test/support/gate-sandbox'
import { NodePtyService } from '../../pty/node-pty-service'
import { createBashTool } from '../../tools/bash'
import type { BashSandboxState } from '../../tools/bash-sandbox'
import { runToolCall } from '../../tools/run-tool'
import { createToolContext, createToolSession, type ToolSession } from '../../tools/tool-session'
import { decide } from '../decide/decide'
import { loadSettings } from '../settings/load'
import { createBashClassifier } from './bash-preview'

/**
 * Git configuration that comes with the repository must not run on the agent's "read-only" git
 * (issue 25, point 3). A real repository with a planted `.git/config` whose `core.fsmonitor` runs
 * a script that writes a marker, and a committed folder laid out as a git directory: `git status`
 * through the gate and the Bash tool (outside and inside the real sandbox) never runs the script.
 */

const base = sandboxScratch('.sous-git-config-')
const project = join(base, 'project')
// Inside the project, which the sandbox lets a command write: only the protections keep it absent there.
const marker = join(project, 'ran-marker')
const script = join(base, 'planted.sh')
const sousHome = join(base, 'sous-home')
mkdirSync(project)
writeFileSync(script, `#!/bin/sh\necho "$0 $*" >> ${marker}\n`)
chmodSync(script, 0o755)
const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } })
git(project, 'init', '-q')
writeFileSync(join(project, 'a.txt'), 'a\n')
git(project, 'add', 'a.txt')
git(project, 'commit', '-q', '-m', 'one')
writeFileSync(join(project, 'a.txt'), 'changed\n')

const { settings, started, unavailable: noSandbox } = await startGateSandbox({ base, project, sousHome, off: 'the sandbox is off' })
const classifier = await createBashClassifier({ projectRoot: project })

let pty: NodePtyService
let session: ToolSession
beforeEach(() => {
  rmSync(marker, { force: true })
  try {
    git(project, 'config', '--unset-all', 'core.fsmonitor')
  } catch {
    // Not set.
  }
  pty = new NodePtyService({ killGraceMs: 300 })
  session = createToolSession({ cwd: project })
})
afterEach(async () => {
  await session.dispose()
  await pty.dispose()
})

const decideBash = (command: string, cwd = project) => decide({ tool: { name: 'Bash', isReadOnly: () => true }, input: { command }, mode: 'default', settings, cwd, projectRoot: project })
const ctx = (cwd = project) => createToolContext(session, { cwd, projectRoot: project, projectDataDir: join(base, 'data'), sessionId: 's1', agentId: 'main', toolUseId: 't1', signal: new AbortController().signal })

/** An embedded repository: a committed folder laid out as a git directory whose config names the script. */
function plantEmbedded(): string {
  const embedded = join(project, 'vendor', 'embedded')
  mkdirSync(join(embedded, 'objects'), { recursive: true })
  mkdirSync(join(embedded, 'refs', 'heads'), { recursive: true })
  writeFileSync(join(embedded, 'HEAD'), 'ref: refs/heads/main\n')
  writeFileSync(join(embedded, 'config'), `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = ${script}\n`)
  return embedded
}

describe("the agent's read-only git and the repository's own configuration", () => {
  it('the planted fsmonitor really runs on a plain git status (the attack works without the protections)', () => {
    git(project, 'config', 'core.fsmonitor', script)
    git(project, 'status', '--short')
    expect(existsSync(marker)).toBe(true)
  })

  it('git status through the Bash tool does not run it (outside the sandbox)', async () => {
    git(project, 'config', 'core.fsmonitor', script)
    expect((await decideBash('git status')).behavior).toBe('allow')
    const bash = createBashTool({ pty, classify: classifier.classify })
    const result = await runToolCall(bash, { command: 'git status --short' }, ctx())
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy()
    expect(existsSync(marker)).toBe(false)
  })

  it.skipIf(noSandbox !== undefined)(skippedUnless('git status through the Bash tool does not run it (inside the sandbox)', noSandbox), async () => {
    git(project, 'config', 'core.fsmonitor', script)
    const bash = createBashTool({ pty, classify: classifier.classify, sandbox: started?.state as BashSandboxState })
    const result = await runToolCall(bash, { command: 'git status --short' }, ctx())
    expect(result.details).toMatchObject({ sandbox: { sandboxed: true } })
    expect(existsSync(marker)).toBe(false)
  })

  it('asks when the configuration names a program the environment cannot switch off (a clean filter)', async () => {
    git(project, 'config', 'filter.x.clean', script)
    writeFileSync(join(project, '.gitattributes'), '*.txt filter=x\n')
    try {
      const d = await decideBash('git status')
      expect(d).toMatchObject({ behavior: 'ask', explanation: { kind: 'bash-analysis', problems: [expect.stringContaining('filter.x.clean')] } })
      // An allow rule does not cover it either.
      const ruled = loadSettings(project, { projectTrust: 'assume', sousHome, home: join(base, 'home'), managedPath: join(base, 'managed.json'), cli: { allowedTools: ['Bash(git status:*)'] } }).settings
      const d2 = await decide({ tool: { name: 'Bash', isReadOnly: () => true }, input: { command: 'git status' }, mode: 'default', settings: ruled, cwd: project, projectRoot: project })
      expect(d2.behavior).toBe('ask')
    } finally {
      git(project, 'config', '--remove-section', 'filter.x')
      rmSync(join(project, '.gitattributes'))
    }
  })

  it('treats entering an embedded git directory as not read-only', async () => {
    const embedded = plantEmbedded()
    try {
      // Control: git really would use it and run the script.
      execFileSync('git', ['status', '--short'], { cwd: embedded, stdio: 'ignore' })
      expect(existsSync(marker)).toBe(true)
      rmSync(marker)
      expect(await decideBash('git status', embedded)).toMatchObject({ behavior: 'ask', explanation: { problems: [expect.stringContaining('laid out as a git directory')] } })
      for (const command of ['git -C vendor/embedded status', 'git --git-dir=vendor/embedded status', 'GIT_DIR=vendor/embedded git status', 'cd vendor/embedded && git status'])
        expect((await decideBash(command)).behavior, command).toBe('ask')
      // And if it runs anyway (approved), git refuses the implicit bare repository.
      const bash = createBashTool({ pty, classify: classifier.classify })
      await runToolCall(bash, { command: 'git status --short' }, ctx(embedded))
      expect(existsSync(marker)).toBe(false)
    } finally {
      rmSync(join(project, 'vendor'), { recursive: true, force: true })
    }
  })

  it("keeps git status read-only in a plain repository (the user's own configuration is trusted)", async () => {
    expect((await decideBash('git status')).behavior).toBe('allow')
    expect((await decideBash('git log --oneline -3')).behavior).toBe('allow')
  })
})
