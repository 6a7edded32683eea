import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, afterEach, describe, expect, it } from 'vitest'
import { NodePtyService } from '../../pty/node-pty-service'
import { createBashTool } from '../../tools/bash'
import type { BashSandboxState } from '../../tools/bash-sandbox'
import { runToolCall } from '../../tools/run-tool'
import { createToolContext, createToolSession, type ToolSession } from '../../tools/tool-session'
import { resultText } from '../../tools/result-text'
import type { ToolResult } from '../../tools/types'
import { createBashClassifier, type BashClassifier } from './bash-preview'
import { sandboxScratch, skippedUnless } from '../../../../test/support/sandbox-scratch'
import { startGateSandbox } from '../../../../test/support/gate-sandbox'

/** The Bash tool inside the real sandbox (bubblewrap here), started the way the host starts it. */
// Outside the temp dir on purpose: the sandbox makes tmpdir() writable.
const base = sandboxScratch('.sous-gate-sandbox-test-')
const project = join(base, 'project')
const outside = join(base, 'outside')
mkdirSync(join(project, 'sub'), { recursive: true })
mkdirSync(join(project, '.claude'), { recursive: true })
mkdirSync(outside)
const sousHome = join(base, 'sous-home')
const { started, unavailable } = await startGateSandbox({ base, project, sousHome, off: 'the settings turn the sandbox off' })
const classifier: BashClassifier = await createBashClassifier({ projectRoot: project })

let pty: NodePtyService
let session: ToolSession
beforeEach(() => {
  pty = new NodePtyService({ killGraceMs: 300 })
  session = createToolSession({ cwd: project })
})
afterEach(async () => {
  await session.dispose()
  await pty.dispose()
})

function ctx() {
  return createToolContext(session, { cwd: project, projectRoot: project, projectDataDir: join(base, 'data'), sessionId: 's1', agentId: 'main', toolUseId: 't1', signal: new AbortController().signal })
}
const textOf = (result: ToolResult): string => resultText(result.content)
const available = (): BashSandboxState | undefined => (started?.state.available ? started.state : undefined)
/** The running sandbox, for the tests that skip without one. */
const running = (): BashSandboxState => available() ?? { available: false, reason: unavailable ?? 'unknown' }

describe('Bash in the sandbox', () => {
  it('starts (or says why not)', () => {
    expect(started).toBeDefined()
    if (started?.state.available === false) expect(started.state.reason).toMatch(/^sandbox unavailable:/)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('runs inside: writes in the project pass, writes outside are refused and reported', unavailable), async () => {
    const state = running()
    const bash = createBashTool({ pty, sandbox: state })
    const ok = await runToolCall(bash, { command: 'echo in > inside.txt && cd sub && pwd -P' }, ctx())
    expect(textOf(ok)).toContain(realpathSync(join(project, 'sub')))
    // The wrapper's own plumbing (no /dev/tty inside the sandbox) never leaks into the output.
    expect(textOf(ok)).not.toContain('/dev/tty')
    expect(readFileSync(join(project, 'inside.txt'), 'utf8')).toBe('in\n')
    // The working directory carries over from inside the sandbox.
    expect(session.shell.cwd).toBe(realpathSync(join(project, 'sub')))
    expect(ok.details).toMatchObject({ exitCode: 0, sandbox: { sandboxed: true } })

    const target = join(outside, 'escape.txt')
    const bad = await runToolCall(bash, { command: `echo out > ${target}` }, ctx())
    expect(bad.isError).toBe(true)
    expect(existsSync(target)).toBe(false)
    expect(textOf(bad)).toMatch(/Read-only file system|Permission denied/)
    expect(textOf(bad)).toContain('<sandbox_violations>')
    expect(textOf(bad)).toContain(target)
    expect((bad.details as { sandbox: { violations: string[] } }).sandbox.violations.join('\n')).toContain(target)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('reports no violation for a command that worked, nor for one that failed for another reason', unavailable), async () => {
    const state = running()
    const bash = createBashTool({ pty, sandbox: state })
    // bash opens its terminal read-write at start-up; under a PTY that is bwrap's /dev/console.
    const ok = await runToolCall(bash, { command: 'echo hi; tty; : > /dev/null' }, ctx())
    expect(ok.isError).toBeFalsy()
    expect(textOf(ok)).not.toContain('sandbox_violations')
    expect(textOf(ok)).not.toContain('dangerouslyDisableSandbox')
    expect((ok.details as { sandbox: Record<string, unknown> }).sandbox.violations).toBeUndefined()
    // A write attempt that changed nothing, then a failure of the command's own.
    const other = await runToolCall(bash, { command: `touch ${join(outside, 'probe')} 2>/dev/null; echo tests failed; exit 3` }, ctx())
    expect(other.isError).toBe(true)
    expect(textOf(other)).toContain('Exit code 3')
    expect(textOf(other)).not.toContain('sandbox_violations')
    expect(textOf(other)).not.toContain('dangerouslyDisableSandbox')
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('protects the settings files from sandboxed programs', unavailable), async () => {
    const state = running()
    const bash = createBashTool({ pty, sandbox: state })
    const r = await runToolCall(bash, { command: `echo '{"permissions":{"allow":["Bash"]}}' > ${join(project, '.claude', 'settings.local.json')}` }, ctx())
    expect(r.isError).toBe(true)
    expect(existsSync(join(project, '.claude', 'settings.local.json')) && readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8').includes('allow')).toBe(false)
  })

  it.skipIf(unavailable !== undefined)(skippedUnless('runs outside with dangerouslyDisableSandbox', unavailable), async () => {
    const state = running()
    const bash = createBashTool({ pty, sandbox: state })
    const target = join(outside, 'allowed.txt')
    const r = await runToolCall(bash, { command: `echo out > ${target}`, dangerouslyDisableSandbox: true }, ctx())
    expect(r.isError).toBeFalsy()
    expect(readFileSync(target, 'utf8')).toBe('out\n')
    expect(r.details).toMatchObject({ sandbox: { sandboxed: false, reason: 'dangerouslyDisableSandbox' } })
  })

  it('says once per session that the sandbox is unavailable', async () => {
    const bash = createBashTool({ pty, sandbox: { available: false, reason: 'sandbox unavailable: bubblewrap (bwrap) not installed' } })
    const first = await runToolCall(bash, { command: 'echo a' }, ctx())
    const second = await runToolCall(bash, { command: 'echo b' }, ctx())
    expect(first.details).toMatchObject({ sandbox: { sandboxed: false, notice: expect.stringContaining('bwrap') } })
    expect(second.details).toMatchObject({ sandbox: { sandboxed: false, reason: expect.stringContaining('bwrap') } })
    expect((second.details as { sandbox: Record<string, unknown> }).sandbox.notice).toBeUndefined()
  })

  it('previews the split commands, the paths they touch, outside writes and sandbox coverage', async () => {
    const state: BashSandboxState = available() ?? { available: false, reason: 'sandbox unavailable: test' }
    const bash = createBashTool({ pty, sandbox: state, inspect: classifier.inspect })
    const p = await bash.preview?.({ command: `cat notes.txt | grep x > ${join(outside, 'o.txt')} && rm -f old.log` }, ctx())
    expect(p).toMatchObject({
      kind: 'command',
      commands: ['cat notes.txt', 'grep x', 'rm -f old.log'],
      writesOutside: true,
      sandboxed: state.available,
      problems: [],
    })
    const paths = (p as { paths: Array<{ path: string; write: boolean; inside: boolean }> }).paths
    expect(paths).toContainEqual({ path: join(outside, 'o.txt'), write: true, inside: false })
    expect(paths).toContainEqual({ path: join(project, 'old.log'), write: true, inside: true })
    const off = await bash.preview?.({ command: 'ls', dangerouslyDisableSandbox: true }, ctx())
    expect(off).toMatchObject({ sandboxed: false, sandboxNote: expect.stringContaining('dangerouslyDisableSandbox') })
    const bad = await bash.preview?.({ command: 'echo $(whoami' }, ctx())
    expect((bad as { problems: string[] }).problems.length).toBeGreaterThan(0)
  })
})

describe('Bash classifier', () => {
  it('marks read-only commands safe and anything else, or unparseable, not', () => {
    const bash = createBashTool({ pty, classify: classifier.classify })
    for (const command of ['ls', 'cat x', 'git status', 'rg foo', 'ls -la src | wc -l']) {
      expect(bash.isReadOnly({ command }), command).toBe(true)
      expect(bash.isConcurrencySafe({ command }), command).toBe(true)
    }
    for (const command of ['rm x', 'npm test', 'echo "unterminated', 'ls $(rm -rf x)', 'echo hi > out.txt', 'git push']) {
      expect(bash.isReadOnly({ command }), command).toBe(false)
      expect(bash.isConcurrencySafe({ command }), command).toBe(false)
    }
  })
})
