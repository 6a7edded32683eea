import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { sandboxPlatformProblem, sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { BashSandbox } from './bash-sandbox'
import { PlaceholderScope } from './project-protection'
import { runCollected } from './run-collected'
import { attributionOf, readdress, WrapCache } from './wrap-cache'
import { boundSources } from './wrap-fingerprint'

// Real bubblewrap over real files. The project lies outside the temp dirs (the sandbox makes those
// writable), and the process works in it, so the library's own scan of its working directory
// (nested repositories' hooks) covers the project too, as it does for `sous -p`.
const base = sandboxScratch('.sous-wrap-cache-test-')
const project = join(base, 'project')
const outside = join(base, 'outside')
mkdirSync(project, { recursive: true })
mkdirSync(outside, { recursive: true })
const previousCwd = process.cwd()
process.chdir(project)
const started = await BashSandbox.start({ projectRoot: project, home: join(base, 'home'), denyRead: [join(project, 'secrets/**'), join(project, '.env')] })
const unavailable = sandboxPlatformProblem() ?? (started.ok ? undefined : started.reason)
const sandbox = (started.ok ? started.sandbox : undefined) as BashSandbox

afterAll(async () => {
  process.chdir(previousCwd)
  await sandbox?.dispose()
  rmSync(base, { recursive: true, force: true })
})

/** What the Bash tool wraps: one script for every command, the command itself in the environment. */
const SCRIPT = 'eval "$SOUS_TEST_COMMAND"'
const newId = () => `sous-bash-${randomBytes(16).toString('base64url')}`

/** One command as the Bash tool runs it: wrapped, run, cleaned up. */
async function sandboxed(command: string) {
  const commandId = newId()
  const wrapped = await sandbox.wrap(SCRIPT, { commandId, commandText: command })
  process.env['SOUS_TEST_COMMAND'] = command
  try {
    return await runCollected(wrapped, project, 30_000)
  } finally {
    delete process.env['SOUS_TEST_COMMAND']
    sandbox.cleanup(commandId)
  }
}

/**
 * Wraps through a cache and, beside it, through the library afresh with the same policy and id:
 * the two must be the same text, reused or not. Returns whether the cache reused its last wrap.
 */
async function sameAsLibrary(cache: WrapCache): Promise<boolean> {
  const scope = new PlaceholderScope(sandbox.config.filesystem.allowWrite.map((e) => (typeof e === 'string' ? e : e.path)), project)
  const config: SandboxRuntimeConfig = sandbox.commandConfig(scope)
  const commandId = newId()
  const fresh = () => SandboxManager.wrapWithSandbox(SCRIPT, undefined, config, undefined, { commandId, commandText: 'x' })
  let libraryWrapped = false
  const cached = await cache.wrap(SCRIPT, config, { commandId, commandText: 'x' }, () => {
    libraryWrapped = true
    return fresh()
  })
  const library = await fresh()
  expect(cached).toBe(library)
  SandboxManager.cleanupAfterCommand()
  if (cache.ended(commandId)) SandboxManager.cleanupAfterCommand()
  scope.release()
  return !libraryWrapped
}

describe('readdress', () => {
  it('moves a wrap from one command id to another in both forms it carries', () => {
    const from = attributionOf('sous-bash-aaaaaaaaaaaaaaaaaaaaaa')
    const to = attributionOf('sous-bash-bbbbbbbbbbbbbbbbbbbbbb')
    const wrapped = `--setenv SRT_ENCODED_CMD ${from} --setenv HTTP_PROXY 'http://srt.${encodeURIComponent(from)}:t@localhost:3128'`
    expect(readdress(wrapped, from, to)).toBe(`--setenv SRT_ENCODED_CMD ${to} --setenv HTTP_PROXY 'http://srt.${encodeURIComponent(to)}:t@localhost:3128'`)
  })
})

describe('boundSources', () => {
  it('reads every bound path as the library quotes it', () => {
    const wrapped = `/usr/bin/bwrap --bind /tmp/s.sock /tmp/s.sock --ro-bind / / --ro-bind '/p/a b' '/p/a b' --bind '/p/it'"'"'s' '/p/it'"'"'s' --tmpfs /x -- bash -c 'echo --bind'`
    expect(boundSources(wrapped)).toEqual(['/tmp/s.sock', '/', '/p/a b', "/p/it's"])
  })
})

describe('WrapCache', () => {
  it.skipIf(unavailable !== undefined)(skippedUnless('reuses a wrap only as the library would write it, and wraps afresh after each change a command could make', unavailable), async () => {
    // A folder of PATH the sandbox can write (in a temp dir, outside the scan of the working directory), ahead of the system's.
    const path = process.env['PATH']
    const bin = mkdtempSync(join(tmpdir(), 'sous-wrap-cache-bin-'))
    process.env['PATH'] = `${bin}:${path}`
    const cache = new WrapCache()
    expect(await sameAsLibrary(cache)).toBe(false)
    expect(await sameAsLibrary(cache)).toBe(true)
    expect(await sameAsLibrary(cache)).toBe(true)
    const gone = (...paths: string[]) => () => paths.forEach((p) => rmSync(p, { recursive: true, force: true }))
    mkdirFolder(project, 'src')
    // Each change alone, from a state whose wrap was being reused, and undone after.
    const changes: Array<[string, () => void, () => void]> = [
      ['a nested repository', () => writeFileSync(join(mkdirFolder(project, 'sub/.git'), 'HEAD'), 'ref: refs/heads/main\n'), gone(join(project, 'sub'))],
      ['a folder the read denies expand in', () => writeFileSync(join(mkdirFolder(project, 'secrets'), 'key'), 'k'), gone(join(project, 'secrets'))],
      ['a denied file', () => writeFileSync(join(project, '.env'), 'TOKEN=1'), gone(join(project, '.env'))],
      ['a link in place of a folder', () => (rmSync(join(project, 'src'), { recursive: true }), symlinkSync(outside, join(project, 'src'))), () => (rmSync(join(project, 'src')), mkdirFolder(project, 'src'))],
      ['a folder made unreadable', () => chmodSync(join(project, 'src'), 0o000), () => chmodSync(join(project, 'src'), 0o755)],
      ['a protected start-up file', () => writeFileSync(join(project, '.bashrc'), ''), gone(join(project, '.bashrc'))],
      ['a shell found first on PATH', () => writeFileSync(join(bin, 'bash'), '#!/bin/sh\nexec /bin/bash "$@"\n', { mode: 0o755 }), gone(join(bin, 'bash'))],
    ]
    for (const [what, make, undo] of changes) {
      await sameAsLibrary(cache)
      expect(await sameAsLibrary(cache), `${what}: reused before`).toBe(true)
      make()
      expect(await sameAsLibrary(cache), what).toBe(false)
      undo()
    }
    // A repository without hooks: Sous holds a placeholder folder for them (`library-denies.ts`), so the library makes no mount
    // point of its own, which would live for one command, and the wrap is reused as any other.
    writeFileSync(join(mkdirFolder(project, 'sub/.git'), 'HEAD'), 'ref: refs/heads/main\n')
    expect(await sameAsLibrary(cache)).toBe(false)
    for (let i = 0; i < 2; i++) expect(await sameAsLibrary(cache)).toBe(true)
    gone(join(project, 'sub'), join(project, 'src'), bin)()
    process.env['PATH'] = path
    expect(await sameAsLibrary(cache)).toBe(false)
    expect(await sameAsLibrary(cache)).toBe(true)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('keeps nothing while another sandboxed command runs', unavailable), async () => {
    const cache = new WrapCache()
    const other = newId()
    await sandbox.wrap(SCRIPT, { commandId: other, commandText: 'other' })
    expect(await sameAsLibrary(cache)).toBe(false)
    expect(await sameAsLibrary(cache)).toBe(false)
    sandbox.cleanup(other)
    expect(await sameAsLibrary(cache)).toBe(false)
    expect(await sameAsLibrary(cache)).toBe(true)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('wraps afresh once the library configuration changed', unavailable), async () => {
    const cache = new WrapCache()
    await sameAsLibrary(cache)
    expect(await sameAsLibrary(cache)).toBe(true)
    sandbox.denyDomains(['denied.invalid'])
    expect(await sameAsLibrary(cache)).toBe(false)
  })
})

describe('BashSandbox with reused wraps', () => {
  it.skipIf(unavailable !== undefined)(skippedUnless('protects what a command made from the next command on', unavailable), async () => {
    const spy = vi.spyOn(SandboxManager, 'wrapWithSandbox')
    try {
      expect((await sandboxed('echo one')).stdout).toBe('one\n')
      expect((await sandboxed('echo two')).stdout).toBe('two\n')
      // The second command's wrap was the first's.
      expect(spy).toHaveBeenCalledTimes(1)
      // The model makes a repository in a subfolder, then writes its hook: refused.
      expect((await sandboxed('mkdir -p nested/.git && echo "ref: refs/heads/main" > nested/.git/HEAD')).exitCode).toBe(0)
      const hook = await sandboxed('mkdir -p nested/.git/hooks; echo evil > nested/.git/hooks/pre-commit')
      expect(hook.exitCode).not.toBe(0)
      expect(existsSync(join(project, 'nested/.git/hooks/pre-commit'))).toBe(false)
      // An instruction file the model made is protected once it exists.
      expect((await sandboxed('echo ok > CLAUDE.md')).exitCode).toBe(0)
      expect((await sandboxed('echo evil >> CLAUDE.md')).exitCode).not.toBe(0)
      // A denied file that appeared outside the sandbox is not readable by the next command.
      writeFileSync(join(project, '.env'), 'TOP-SECRET')
      const read = await sandboxed('cat .env')
      expect(read.stdout).not.toContain('TOP-SECRET')
      // And a write outside the project stays refused through reused wraps.
      await sandboxed('true')
      const out = await sandboxed(`echo x > ${join(outside, 'x')}`)
      expect(out.exitCode).not.toBe(0)
      expect(existsSync(join(outside, 'x'))).toBe(false)
    } finally {
      spy.mockRestore()
    }
  })
})

describe('BashSandbox with reused wraps in a git repository', () => {
  it.skipIf(unavailable !== undefined)(skippedUnless("reuses wraps while git's absent files stay uncreatable and leave nothing behind", unavailable), async () => {
    // What the tests before left (a nested repository without hooks is wrapped afresh every time).
    for (const made of ['.git', 'nested', 'CLAUDE.md', '.env']) rmSync(join(project, made), { recursive: true, force: true })
    execFileSync('git', ['init', '-q', project])
    const spy = vi.spyOn(SandboxManager, 'wrapWithSandbox')
    try {
      expect((await sandboxed('echo one')).stdout).toBe('one\n')
      expect((await sandboxed('echo two')).stdout).toBe('two\n')
      expect(spy).toHaveBeenCalledTimes(1)
      for (const file of ['.git/modules/x/config', '.git/config.worktree']) {
        expect((await sandboxed(`mkdir -p "$(dirname ${file})" 2>/dev/null; echo planted > ${file}`)).exitCode, file).not.toBe(0)
      }
      expect(spy).toHaveBeenCalledTimes(1)
      // The folder and file that stood in for them while the commands ran are gone again.
      expect(existsSync(join(project, '.git', 'modules'))).toBe(false)
      expect(existsSync(join(project, '.git', 'config.worktree'))).toBe(false)
    } finally {
      spy.mockRestore()
      rmSync(join(project, '.git'), { recursive: true, force: true })
    }
  })
})

function mkdirFolder(root: string, path: string): string {
  const dir = join(root, path)
  mkdirSync(dir, { recursive: true })
  return dir
}
