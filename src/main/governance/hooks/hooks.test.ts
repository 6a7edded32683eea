import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadBashAnalyzer } from '../bash/analyzer'
import { decide } from '../decide/decide'
import { loadSettings } from '../settings/load'
import { makeTempProject, type TempProject } from '../../../../test/support/governance'
import { HookLog } from './log'
import { matcherMatches } from './matcher'
import { HookRunner } from './runner'
import { StopHookGuard } from './stop-guard'

let project: TempProject
beforeAll(async () => {
  await loadBashAnalyzer()
})
afterEach(() => project?.cleanup())

/** Writes an executable script into the temp project and returns its path. */
function script(name: string, body: string): string {
  const file = join(project.base, name)
  writeFileSync(file, body)
  chmodSync(file, 0o755)
  return file
}

function runnerFor(hooks: Record<string, unknown>) {
  writeFileSync(join(project.root, '.claude', 'settings.json'), JSON.stringify({ hooks }))
  const { settings, diagnostics } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
  expect(diagnostics).toEqual([])
  const log = new HookLog()
  return { runner: new HookRunner({ hooks: settings.hooks, sessionId: 's1', projectRoot: project.root, log }), log, settings }
}

const pre = (command: string) => ({ tool_name: 'Bash', tool_input: { command }, tool_use_id: 't1' })

describe('HookRunner', () => {
  it('exit 2 blocks PreToolUse with stderr as the reason; the hook gets JSON on stdin', async () => {
    project = makeTempProject()
    const seen = join(project.base, 'stdin.json')
    const guard = script('guard.sh', `#!/bin/bash\ncat > ${seen}\necho "no rm please" >&2\nexit 2\n`)
    const { runner, log } = runnerFor({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: guard }] }] })
    const agg = await runner.fire('PreToolUse', pre('rm -rf x'), { cwd: project.root, permissionMode: 'default' })
    expect(agg).toMatchObject({ blocked: true, blockReason: 'no rm please', permission: 'deny', count: 1 })
    expect(JSON.parse(readFileSync(seen, 'utf8'))).toMatchObject({ session_id: 's1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf x' }, cwd: project.root, permission_mode: 'default' })
    const [entry] = log.entries()
    expect(entry).toMatchObject({ event: 'PreToolUse', matcher: 'Bash', exitCode: 2, stderr: 'no rm please\n', source: join(project.root, '.claude', 'settings.json') })
    expect(entry?.durationMs).toBeGreaterThanOrEqual(0)
  })

  it('other non-zero exits are reported, not blocking; JSON output is parsed', async () => {
    project = makeTempProject()
    const fail = script('fail.sh', '#!/bin/sh\necho oops >&2\nexit 1\n')
    const json = script('json.js', `#!/usr/bin/env node
let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const input = JSON.parse(s)
  console.log(JSON.stringify({ systemMessage: 'checked', hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'ask',
    permissionDecisionReason: 'looks risky', updatedInput: { command: input.tool_input.command + ' --dry-run' }, additionalContext: 'ctx' } }))
})\n`)
    const { runner } = runnerFor({ PreToolUse: [{ matcher: '', hooks: [{ type: 'command', command: fail }, { type: 'command', command: json }, { type: 'command', command: json }] }] })
    const agg = await runner.fire('PreToolUse', pre('npm publish'), { cwd: project.root, permissionMode: 'default' })
    expect(agg.blocked).toBe(false)
    expect(agg.count).toBe(2) // identical handlers run once
    expect(agg.errors.join()).toMatch(/exit 1: oops/)
    expect(agg).toMatchObject({ permission: 'ask', permissionReason: 'looks risky', updatedInput: { command: 'npm publish --dry-run' }, additionalContext: ['ctx'], systemMessages: ['checked'] })
  })

  it('runs matching hooks in parallel and resolves deny > ask > allow', async () => {
    project = makeTempProject()
    const dir = project.base
    // Each waits for the other's marker: this finishes only if both run at the same time.
    const a = script('a.sh', `#!/bin/sh\ntouch ${dir}/a\nwhile [ ! -f ${dir}/b ]; do sleep 0.05; done\necho '{"hookSpecificOutput":{"permissionDecision":"allow"}}'\n`)
    const b = script('b.sh', `#!/bin/sh\ntouch ${dir}/b\nwhile [ ! -f ${dir}/a ]; do sleep 0.05; done\necho '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"nope"}}'\n`)
    const c = script('c.sh', `#!/bin/sh\necho '{"hookSpecificOutput":{"permissionDecision":"ask"}}'\n`)
    const { runner } = runnerFor({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: a, timeout: 30 }] }, { matcher: 'Ba.*', hooks: [{ type: 'command', command: b, timeout: 30 }, { type: 'command', command: c }] }] })
    const agg = await runner.fire('PreToolUse', pre('ls'), { cwd: project.root, permissionMode: 'default' })
    expect(agg.errors).toEqual([])
    expect(agg).toMatchObject({ permission: 'deny', permissionReason: 'nope', count: 3 })
  })

  it('kills the whole process group on timeout', async () => {
    project = makeTempProject()
    const pidFile = join(project.base, 'child.pid')
    const slow = script('slow.sh', `#!/bin/sh\nsleep 300 &\necho $! > ${pidFile}\nwait\n`)
    const { runner, log } = runnerFor({ Stop: [{ hooks: [{ type: 'command', command: slow, timeout: 1 }] }] })
    const agg = await runner.fire('Stop', { stop_hook_active: false }, { cwd: project.root, permissionMode: 'default' })
    expect(agg.blocked).toBe(false)
    expect(agg.errors.join()).toMatch(/timed out/)
    expect(log.entries()[0]?.timedOut).toBe(true)
    const pid = Number(readFileSync(pidFile, 'utf8'))
    const stat = `/proc/${pid}/stat`
    await expect.poll(() => !existsSync(stat) || readFileSync(stat, 'utf8').split(' ')[2] === 'Z', { timeout: 10_000 }).toBe(true)
  })

  it('matchers: exact, lists, unanchored regexps; Stop ignores matchers', async () => {
    expect(matcherMatches('Edit|Write', 'Write')).toBe(true)
    expect(matcherMatches('Edit,Write', 'MultiEdit')).toBe(false)
    expect(matcherMatches('Edit.*', 'NotebookEdit')).toBe(true)
    expect(matcherMatches('^Edit$', 'NotebookEdit')).toBe(false)
    expect(matcherMatches('mcp__gh__.*', 'mcp__gh__x')).toBe(true)
    expect(matcherMatches('(', 'x')).toBe(false)
    project = makeTempProject()
    const ok = script('ok.sh', '#!/bin/sh\necho \'{"decision":"block","reason":"tests fail"}\'\n')
    const { runner } = runnerFor({ Stop: [{ matcher: 'NeverMatches', hooks: [{ type: 'command', command: ok }] }] })
    expect(await runner.fire('Stop', {}, { cwd: project.root, permissionMode: 'default' })).toMatchObject({ blocked: true, blockReason: 'tests fail' })
  })

  it('the `if` filter uses rule syntax per subcommand', async () => {
    project = makeTempProject()
    const block = script('block.sh', '#!/bin/sh\necho git >&2\nexit 2\n')
    const { runner } = runnerFor({ PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: block, if: 'Bash(git push *)' }] }] })
    expect((await runner.fire('PreToolUse', pre('ls'), { cwd: project.root, permissionMode: 'default' })).count).toBe(0)
    expect((await runner.fire('PreToolUse', pre('ls && git push origin'), { cwd: project.root, permissionMode: 'default' })).blocked).toBe(true)
  })

  it("a hook's allow never overrides a deny or ask rule; it only skips the default prompt", async () => {
    project = makeTempProject({ permissions: { deny: ['Bash(rm *)'], ask: ['Bash(git push *)'] } })
    const { settings } = loadSettings(project.root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: join(project.base, 'm.json') })
    const hook = { decision: 'allow' as const, reason: 'hook says fine' }
    const run = (command: string) => decide({ tool: { name: 'Bash', isReadOnly: () => false }, input: { command }, mode: 'default', settings, cwd: project.root, projectRoot: project.root, hook })
    expect((await run('rm x')).behavior).toBe('deny')
    expect((await run('git push origin')).behavior).toBe('ask')
    expect((await run('echo $(id)')).behavior).toBe('ask')
    expect(await run('npm install')).toMatchObject({ behavior: 'allow', explanation: { kind: 'hook' } })
    const denied = await decide({ tool: { name: 'Bash', isReadOnly: () => false }, input: { command: 'ls' }, mode: 'bypassPermissions', settings, cwd: project.root, projectRoot: project.root, hook: { decision: 'deny', reason: 'blocked' } })
    expect(denied).toMatchObject({ behavior: 'deny', message: 'blocked' })
  })
})

describe('StopHookGuard', () => {
  it('forces one more round at most once in a row', () => {
    const g = new StopHookGuard()
    expect(g.active).toBe(false)
    expect(g.permitContinue()).toBe(true)
    expect(g.active).toBe(true)
    expect(g.permitContinue()).toBe(false)
    g.reset()
    expect(g.permitContinue()).toBe(true)
  })
})
