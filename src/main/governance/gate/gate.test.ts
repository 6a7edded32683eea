// Longer than 300 lines because each case drives the whole gate (real Bash on a PTY, real files,
// hooks, approvals) through one shared set-up; split it when a group needs its own.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NodePtyService } from '../../pty/node-pty-service'
import { createBashTool } from '../../tools/bash'
import { runToolCall } from '../../tools/run-tool'
import { createToolContext, createToolSession, type ToolSession } from '../../tools/tool-session'
import { resultText } from '../../tools/result-text'
import type { AnyTool, ToolResult } from '../../tools/types'
import { readTool } from '../../tools/read'
import { writeTool } from '../../tools/write'
import { projectDataDir, toolResultsDir } from '../../base/paths'
import { ApprovalQueue, type ApprovalRequest } from '../approvals/queue'
import { UnattendedAnswerer } from '../approvals/answerer'
import { DenialLog } from '../approvals/denials'
import { createBashClassifier } from './bash-preview'
import { SessionGrants } from '../decide/session'
import { createPermissionGate, type PermissionGateOptions } from './gate'
import type { GateNotice } from './gate-settings'
import { HookRunner } from '../hooks/runner'

let base: string
let project: string
let sousHome: string
let pty: NodePtyService
let session: ToolSession
let bash: AnyTool
const gates: Array<{ abortPending(): void; queue: ApprovalQueue }> = []

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'sous-gate-'))
  project = join(base, 'project')
  sousHome = join(base, 'sous-home')
  mkdirSync(join(project, '.claude'), { recursive: true })
  mkdirSync(sousHome)
  // A harmless stand-in for `npm test`: a project script that only prints.
  writeFileSync(join(project, 'test.sh'), '#!/bin/sh\necho "tests passed"\n')
  chmodSync(join(project, 'test.sh'), 0o755)
  pty = new NodePtyService({ killGraceMs: 300 })
  session = createToolSession({ cwd: project })
  const classifier = await createBashClassifier({ projectRoot: project })
  bash = createBashTool({ pty, classify: classifier.classify, inspect: classifier.inspect })
})

afterEach(async () => {
  for (const g of gates.splice(0)) g.queue.dispose()
  await session.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

function settings(file: 'settings.json' | 'settings.local.json', data: unknown): void {
  writeFileSync(join(project, '.claude', file), JSON.stringify(data, null, 2))
}

/** A real hook script; `body` is shell code that gets the hook's JSON on stdin. */
function hookScript(name: string, body: string): string {
  const file = join(base, name)
  writeFileSync(file, `#!/bin/bash\ninput=$(cat)\n${body}\n`)
  chmodSync(file, 0o755)
  return file
}

/** `headless`: the gate asks the unattended answerer instead of the queue. */
function makeGate({ headless = false, ...extra }: Partial<PermissionGateOptions> & { headless?: boolean } = {}) {
  const denials = new DenialLog()
  const notices: GateNotice[] = []
  const queue = new ApprovalQueue({ projectRoot: project, sousHome, sessionGrants: new SessionGrants(project) })
  const hooks = new HookRunner({ hooks: [], sessionId: 's1', projectRoot: project })
  const gate = createPermissionGate({
    projectRoot: project,
    cwd: () => session.shell.cwd,
    sousHome,
    home: join(base, 'home'),
    managedPath: join(base, 'managed-settings.json'),
    mode: 'default',
    // These tests are about the gate; the trust step has its own (gate-trust.test.ts).
    projectTrust: 'assume',
    approvals: headless ? new UnattendedAnswerer(queue.sessionGrants) : queue,
    hooks,
    sessionId: 's1',
    denials,
    onNotice: (n) => notices.push(n),
    ...extra,
  })
  gates.push({ abortPending: gate.abortPending, queue })
  return { gate, queue, denials: denials.entries, notices }
}

/** Resolves with the next request the queue shows. */
function nextRequest(queue: ApprovalQueue): Promise<ApprovalRequest> {
  return new Promise((resolve) => {
    const off = queue.subscribe((pending) => {
      const first = pending[0]
      if (first) {
        off()
        resolve(first)
      }
    })
  })
}

function ctx(toolUseId = 'toolu_1') {
  return createToolContext(session, { cwd: project, projectRoot: project, projectDataDir: join(base, 'data'), sessionId: 's1', agentId: 'main', toolUseId, signal: new AbortController().signal })
}

const textOf = (result: ToolResult): string => resultText(result.content)

describe('permission gate', () => {
  it('denies a write in headless default mode and reports the denial', async () => {
    const { gate, denials } = makeGate({ headless: true })
    const input = { file_path: join(project, 'new.txt'), content: 'x' }
    const d = await gate.canUseTool(writeTool, input, 'toolu_w')
    expect(d.behavior).toBe('deny')
    expect(d.behavior === 'deny' && d.message).toMatch(/headless/)
    expect(denials).toEqual([expect.objectContaining({ toolName: 'Write', toolUseId: 'toolu_w', input, reason: 'headless' })])
    expect(existsSync(join(project, 'new.txt'))).toBe(false)
  })

  it('lets a command run once an allow rule in .claude/settings.json covers it (re-read on change)', async () => {
    const { gate } = makeGate({ headless: true })
    expect((await gate.canUseTool(bash, { command: './test.sh --fast' }, 't1')).behavior).toBe('deny')
    settings('settings.json', { permissions: { allow: ['Bash(./test.sh *)'] } })
    const d = await gate.canUseTool(bash, { command: './test.sh --fast' }, 't2')
    expect(d).toEqual({ behavior: 'allow' })
    expect(textOf(await runToolCall(bash, { command: './test.sh --fast' }, ctx()))).toBe('tests passed')
    // Every part of a chain must be covered.
    expect((await gate.canUseTool(bash, { command: './test.sh --fast && touch x' }, 't3')).behavior).toBe('deny')
  })

  it('lets a deny rule win over a hook that allows', async () => {
    settings('settings.json', {
      permissions: { deny: ['Bash(./test.sh *)'] },
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: hookScript('allow.sh', `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`) }] }] },
    })
    const { gate, denials } = makeGate({ headless: true })
    const d = await gate.canUseTool(bash, { command: './test.sh' }, 't1')
    expect(d.behavior === 'deny' && d.message).toMatch(/denied by the rule Bash\(\.\/test\.sh \*\) from project settings/)
    expect(denials[0]?.reason).toBe('rule')
    // The same hook does approve what only lacked a prompt.
    expect((await gate.canUseTool(bash, { command: 'touch made.txt' }, 't2')).behavior).toBe('allow')
  })

  it('blocks a call when a PreToolUse hook exits 2, with its stderr, even under an allow rule', async () => {
    const script = hookScript('block.sh', `echo "$input" > ${join(base, 'seen.json')}\necho "no scripts on Fridays" >&2\nexit 2`)
    settings('settings.json', { permissions: { allow: ['Bash(./test.sh *)'] }, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: script }] }] } })
    const { gate } = makeGate()
    const d = await gate.canUseTool(bash, { command: './test.sh' }, 'toolu_hook')
    expect(d.behavior).toBe('deny')
    expect(d.behavior === 'deny' && d.message).toContain('no scripts on Fridays')
    const seen = JSON.parse(readFileSync(join(base, 'seen.json'), 'utf8')) as Record<string, unknown>
    expect(seen).toMatchObject({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: './test.sh' }, tool_use_id: 'toolu_hook', session_id: 's1', permission_mode: 'default' })
  })

  it('runs the input a hook put in place of the model\'s', async () => {
    const script = hookScript('rewrite.sh', `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"echo rewritten-by-hook"}}}'`)
    settings('settings.json', { hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: script }] }] } })
    const { gate } = makeGate({ headless: true })
    // The rules judge the new input: `echo` is read-only, so it runs without asking.
    const d = await gate.canUseTool(bash, { command: 'rm -rf build' }, 't1')
    expect(d).toEqual({ behavior: 'allow', updatedInput: { command: 'echo rewritten-by-hook' } })
    const result = await runToolCall(bash, d.behavior === 'allow' ? d.updatedInput : undefined, ctx())
    expect(textOf(result)).toBe('rewritten-by-hook')
  })

  it('refuses a hook\'s replacement input that the tool does not accept', async () => {
    const script = hookScript('bad.sh', `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"cmd":"ls"}}}'`)
    settings('settings.json', { hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: script }] }] } })
    const { gate } = makeGate({ headless: true })
    const d = await gate.canUseTool(bash, { command: 'ls' }, 't1')
    expect(d.behavior === 'deny' && d.message).toMatch(/does not accept/)
  })

  it('does not ask again after "allow for this session"', async () => {
    const { gate, queue } = makeGate()
    const asked = nextRequest(queue)
    const first = gate.canUseTool(bash, { command: './test.sh one' }, 'toolu_a')
    const req = await asked
    expect(req).toMatchObject({ sessionId: 's1', toolUseId: 'toolu_a', toolName: 'Bash', suggestions: ['Bash(./test.sh one)'] })
    expect(req.preview).toMatchObject({ kind: 'command', commands: ['./test.sh one'], problems: [] })
    queue.resolve(req.id, { kind: 'allow_session', rules: ['Bash(./test.sh *)'] })
    expect(await first).toEqual({ behavior: 'allow' })
    let askedAgain = false
    const off = queue.subscribe(() => (askedAgain = true))
    expect(await gate.canUseTool(bash, { command: './test.sh two' }, 'toolu_b')).toEqual({ behavior: 'allow' })
    off()
    expect(askedAgain).toBe(false)
  })

  it('writes "always allow" to .claude/settings.local.json, and a new session is not asked', async () => {
    const { gate, queue } = makeGate()
    const asked = nextRequest(queue)
    const first = gate.canUseTool(bash, { command: './test.sh' }, 'toolu_a')
    queue.resolve((await asked).id, { kind: 'allow_always' })
    expect(await first).toEqual({ behavior: 'allow' })
    const saved = JSON.parse(readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8')) as { permissions: { allow: string[] } }
    expect(saved.permissions.allow).toEqual(['Bash(./test.sh)'])
    // A fresh gate without session grants, headless so that any ask would be a denial.
    const fresh = makeGate({ headless: true })
    expect(await fresh.gate.canUseTool(bash, { command: './test.sh' }, 'toolu_b')).toEqual({ behavior: 'allow' })
    expect(fresh.denials).toEqual([])
  })

  it('fires the Notification hook when it starts waiting for the user', async () => {
    const marker = join(base, 'notified.json')
    settings('settings.json', { hooks: { Notification: [{ hooks: [{ type: 'command', command: hookScript('notify.sh', `echo "$input" > ${marker}`) }] }] } })
    const { gate, queue } = makeGate()
    const asked = nextRequest(queue)
    const call = gate.canUseTool(bash, { command: './test.sh' }, 'toolu_n')
    const req = await asked
    for (let i = 0; i < 200 && !existsSync(marker); i++) await new Promise((resolve) => setTimeout(resolve, 25))
    const input = JSON.parse(readFileSync(marker, 'utf8')) as Record<string, unknown>
    expect(input).toMatchObject({ hook_event_name: 'Notification', message: 'Sous needs your permission to use Bash' })
    queue.resolve(req.id, { kind: 'reject' })
    expect(await call).toMatchObject({ behavior: 'deny' })
  })

  it('passes the user\'s rejection message to the model', async () => {
    const { gate, queue, denials } = makeGate()
    const asked = nextRequest(queue)
    const pending = gate.canUseTool(writeTool, { file_path: join(project, 'a.txt'), content: 'x' }, 'toolu_r')
    const req = await asked
    expect(req.preview).toMatchObject({ kind: 'diff', after: 'x' })
    queue.resolve(req.id, { kind: 'reject', message: 'use b.txt instead' })
    const d = await pending
    expect(d.behavior === 'deny' && d.message).toMatch(/rejected.*use b\.txt instead/)
    expect(denials[0]).toMatchObject({ reason: 'rejected', toolUseId: 'toolu_r' })
  })

  it('rejects pending approvals on abort', async () => {
    const { gate, queue } = makeGate()
    const asked = nextRequest(queue)
    const pending = gate.canUseTool(bash, { command: 'touch a' }, 't1')
    await asked
    gate.abortPending()
    const d = await pending
    expect(d.behavior === 'deny' && d.message).toMatch(/cancelled/)
    expect(queue.pending()).toEqual([])
    // A caller's own signal works the same way.
    const controller = new AbortController()
    const asked2 = nextRequest(queue)
    const pending2 = gate.canUseTool(bash, { command: 'touch b' }, 't2', { signal: controller.signal })
    await asked2
    controller.abort()
    expect((await pending2).behavior).toBe('deny')
  })

  it('reports a settings parse error once, with file:line:col, and fails closed', async () => {
    writeFileSync(join(project, '.claude', 'settings.json'), '{\n  "permissions": {\n    "allow": ["Bash(./test.sh *)",]\n  }\n}\n')
    const { gate, notices } = makeGate({ headless: true })
    expect((await gate.canUseTool(bash, { command: './test.sh' }, 't1')).behavior).toBe('deny')
    await gate.canUseTool(bash, { command: 'ls' }, 't2')
    const errors = notices.filter((n) => n.level === 'error')
    expect(errors).toHaveLength(1)
    expect(errors[0]?.message).toMatch(/settings\.json:3:\d+/)
  })

  it('asks for a mode-approved command when the sandbox is unavailable, and for dangerouslyDisableSandbox always', async () => {
    settings('settings.json', { permissions: { allow: ['Bash(./test.sh *)'] } })
    const { gate } = makeGate({ headless: true, mode: 'acceptEdits', sandbox: { available: false, reason: 'sandbox unavailable: no user namespaces' } })
    const d = await gate.canUseTool(bash, { command: 'mkdir build' }, 't1')
    expect(d.behavior === 'deny' && d.message).toMatch(/outside the sandbox/)
    // Read-only commands and the user's own rules are not affected.
    expect((await gate.canUseTool(bash, { command: 'ls' }, 't2')).behavior).toBe('allow')
    expect((await gate.canUseTool(bash, { command: './test.sh' }, 't3')).behavior).toBe('allow')
    const off = await gate.canUseTool(bash, { command: './test.sh', dangerouslyDisableSandbox: true }, 't4')
    expect(off.behavior === 'deny' && off.message).toMatch(/dangerouslyDisableSandbox/)
  })

  it("reads the session's own saved tool results without asking, and nobody else's", async () => {
    const { gate } = makeGate({ headless: true })
    const mine = toolResultsDir(projectDataDir(sousHome, project), 's1')
    const theirs = toolResultsDir(projectDataDir(sousHome, project), 'another-session')
    mkdirSync(mine, { recursive: true })
    mkdirSync(theirs, { recursive: true })
    writeFileSync(join(mine, 'toolu_1.txt'), 'big output')
    writeFileSync(join(theirs, 'toolu_2.txt'), 'not yours')
    // A link planted in the session's folder leads out of it: judged by where it really leads.
    symlinkSync(join(theirs, 'toolu_2.txt'), join(mine, 'toolu_link.txt'))
    expect((await gate.canUseTool(readTool, { file_path: join(mine, 'toolu_1.txt') }, 't1')).behavior).toBe('allow')
    expect((await gate.canUseTool(readTool, { file_path: join(theirs, 'toolu_2.txt') }, 't2')).behavior).toBe('deny')
    expect((await gate.canUseTool(readTool, { file_path: join(mine, 'toolu_link.txt') }, 't3')).behavior).toBe('deny')
    // A deny rule still wins.
    settings('settings.json', { permissions: { deny: [`Read(/${join(mine, '**')})`] } })
    expect((await gate.canUseTool(readTool, { file_path: join(mine, 'toolu_1.txt') }, 't4')).behavior).toBe('deny')
  })

  it('lets bypassPermissions run commands unconfined when the sandbox is unavailable, and says so once', async () => {
    const warnings: Array<{ reason: string; unconfined: boolean }> = []
    const reason = 'sandbox unavailable: bubblewrap (bwrap) not installed'
    const { gate } = makeGate({ headless: true, mode: 'bypassPermissions', sandbox: { available: false, reason }, onSandboxUnavailable: (w) => warnings.push(w) })
    expect((await gate.canUseTool(bash, { command: 'mkdir build' }, 't1')).behavior).toBe('allow')
    expect((await gate.canUseTool(bash, { command: 'touch build/x' }, 't2')).behavior).toBe('allow')
    expect(warnings).toEqual([{ reason, unconfined: true }])
    // Another mode keeps the fail-closed ask (headless: a denial), and says what that means.
    gate.setMode('acceptEdits')
    expect((await gate.canUseTool(bash, { command: 'mkdir build2' }, 't3')).behavior).toBe('deny')
    expect(warnings).toEqual([
      { reason, unconfined: true },
      { reason, unconfined: false },
    ])
  })

  it('gives PostToolUse context and guards against endless Stop blocks', async () => {
    const post = hookScript('post.sh', 'echo "lint found 2 problems" >&2\nexit 2')
    const stop = hookScript('stop.sh', 'echo "tests are not run yet" >&2\nexit 2')
    settings('settings.json', { hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: post }] }], Stop: [{ hooks: [{ type: 'command', command: stop }] }] } })
    const { gate } = makeGate()
    const out = await gate.postToolUse(bash, { command: 'ls' }, { content: 'a' }, 't1')
    expect(out.additionalContext).toBe('lint found 2 problems')
    expect(await gate.stop()).toEqual({ blockReason: 'tests are not run yet' })
    expect(await gate.stop()).toEqual({})
    expect(await gate.stop()).toEqual({ blockReason: 'tests are not run yet' })
  })
})
