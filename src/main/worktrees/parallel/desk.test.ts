import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useModelServer } from '../../../../test/model-server/vitest'
import type { RecordedRequest } from '../../../../test/model-server/types'
import { pathWithout } from '../../../../test/support/path-without'
import { addWorktree, gitSync, lines, makeRepo, replaceLine } from '../../../../test/support/worktree-repos'
import { createEventHub, type EventHub } from '../../base/event-hub'
import { createCore } from '../../core'
import { APP_URL } from '../../host/sender-policy'
import { MemoryKeyStore } from '../../secrets/memory-key-store'
import { NodePtyService } from '../../pty/node-pty-service'
import { createSessionRuntime, type SessionRuntime } from '../../runtime/runtime'
import { ParallelDesk } from './desk'
import { worktreeDeskStarter } from './starter'

// Run on N through the real session runtime: the real SDK against the scripted server, real git
// worktrees, the Write tool writing into each session's own worktree.
const server = useModelServer()
const ORIGINAL = lines(12)

/** One generic step, by how far the session is: Read shared.txt in its working directory, then Write its model's version, then "done". */
function agentStep(request: RecordedRequest) {
  const body = request.body
  const cwd = /Working directory: ([^\n]+)/.exec((body['system'] as Array<{ text: string }>).map((block) => block.text).join('\n'))?.[1]
  const messages = body['messages'] as Array<{ content: unknown }>
  const model = String(body['model'])
  const results = messages.filter((message) => JSON.stringify(message.content).includes('tool_result')).length
  const id = `toolu_${model.replace(/\W/g, '')}_${results}`
  if (results === 0) return { reply: { content: [{ type: 'tool_use' as const, id, name: 'Read', input: { file_path: `${cwd}/shared.txt` } }] } }
  if (results === 2) return { reply: { content: [{ type: 'text' as const, text: `done with ${model}` }] } }
  const content = model.includes('opus') ? replaceLine(ORIGINAL, 2, 'opus two') : replaceLine(ORIGINAL, 10, 'sonnet ten')
  return { reply: { content: [{ type: 'tool_use' as const, id, name: 'Write', input: { file_path: `${cwd}/shared.txt`, content } }] } }
}

let temp: string
let hub: EventHub
let pty: NodePtyService
let runtime: SessionRuntime
let desk: ParallelDesk

beforeEach(() => {
  temp = mkdtempSync(join(tmpdir(), 'sous-desk-'))
  hub = createEventHub()
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createSessionRuntime({
    home: join(temp, 'sous-home'),
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, HOME: temp },
    hub,
    pty,
    preferences: () => ({ autoMemory: false }),
    permissionMode: 'acceptEdits',
    answerer: 'interactive',
    userHome: temp,
    sandbox: false,
  })
  desk = new ParallelDesk({ home: join(temp, 'sous-home'), hub, sessions: runtime.sessions, starter: worktreeDeskStarter(runtime.worktrees), pty, ask: () => runtime.askModel() })
})
afterEach(async () => {
  desk.dispose()
  await runtime.dispose()
  await pty.dispose()
  rmSync(temp, { recursive: true, force: true })
})

describe('Run on N', () => {
  it('starts one prompt in a worktree session per model; each edits its own worktree; the base is untouched until a merge', async () => {
    const base = makeRepo({ 'shared.txt': ORIGINAL })
    server.setScenario(Array.from({ length: 6 }, () => agentStep))
    const changed: string[] = []
    hub.subscribe((channel, payload) => channel === 'parallel.changed' && changed.push((payload as { runId: string }).runId))
    const run = await desk.start(base, 'Improve shared.txt', ['opus', 'sonnet'])
    expect(run.sessions.map((session) => [session.model, session.branch])).toEqual([
      ['opus', `worktree-${run.runId.slice(4)}-1-opus`],
      ['sonnet', `worktree-${run.runId.slice(4)}-2-sonnet`],
    ])
    // Both finish; their state, cost and changed files show.
    await expect.poll(async () => (await desk.run(run.runId)).sessions.map((session) => session.state), { timeout: 20_000, interval: 200 }).toEqual(['done', 'done'])
    const now = await desk.run(run.runId)
    expect(now.sessions.map((session) => session.changed.map((file) => `${file.path} +${file.additions} -${file.deletions}`))).toEqual([['shared.txt +1 -1'], ['shared.txt +1 -1']])
    expect(now.sessions.every((session) => session.costUsd > 0)).toBe(true)
    expect(changed).toContain(run.runId)
    // The models asked were the ones chosen.
    expect(server.requests.map((request) => String(request.body['model']).replace(/^claude-|-[\d-]+$/g, '')).sort()).toEqual(['opus', 'opus', 'opus', 'sonnet', 'sonnet', 'sonnet'])
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(ORIGINAL)
    expect(gitSync(base, 'worktree', 'list')).toContain(`.claude/worktrees/${run.runId.slice(4)}-1-opus`)
    // Take both sessions' hunks.
    const picks = now.sessions.map((session) => ({ sessionId: session.sessionId, path: 'shared.txt', hunks: [0] }))
    const plan = await desk.plan(run.runId, picks)
    await desk.apply(run.runId, { picks, fingerprints: Object.fromEntries(plan.files.map((file) => [file.path, file.fingerprint])) })
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(replaceLine(replaceLine(ORIGINAL, 2, 'opus two'), 10, 'sonnet ten'))
    // Runs are listed for the project, and a run id of another form is refused.
    expect((await desk.runs(base)).map((stored) => stored.runId)).toEqual([run.runId])
    // Two reads at once (the idle warm-up and the view opened) share one; the next read is fresh.
    const [first, second] = [desk.runs(base), desk.runs(base)]
    expect(await first).toBe(await second)
    writeFileSync(join(now.sessions[0]!.worktree, 'late.txt'), 'written after the first read\n')
    expect((await desk.runs(base))[0]!.sessions[0]!.changed.map((file) => file.path)).toContain('late.txt')
    await expect(desk.run('run_00000000')).rejects.toThrow(/No run/)
  }, 60_000)

  it("reads no session's worktree that is not the base's: a run record naming another repository's worktree, or a session of no run, is refused", async () => {
    const base = makeRepo({ 'shared.txt': ORIGINAL })
    const own = addWorktree(base, 'own')
    writeFileSync(join(own, 'shared.txt'), replaceLine(ORIGINAL, 3, 'ours'))
    // Another repository's worktree, holding something that must not be read through this run.
    const other = makeRepo({ 'secret.txt': 'old\n' })
    const foreign = addWorktree(other, 'theirs')
    writeFileSync(join(foreign, 'secret.txt'), 'SECRET\n')
    const runId = 'run_f0e1d2c3'
    const session = (id: string, name: string, worktree: string) => ({ sessionId: id, name, branch: `worktree-${name}`, worktree, model: 'sonnet' })
    mkdirSync(join(temp, 'sous-home', 'parallel', 'runs'), { recursive: true })
    writeFileSync(join(temp, 'sous-home', 'parallel', 'runs', `${runId}.json`), JSON.stringify({ runId, projectPath: base, prompt: 'p', createdAt: new Date().toISOString(), sessions: [session('s-own', 'own', own), session('s-foreign', 'theirs', foreign)] }))
    const view = await desk.run(runId)
    expect(view.sessions[0]!.changed.map((file) => file.path)).toEqual(['shared.txt'])
    expect(view.sessions[1]).toMatchObject({ sessionId: 's-foreign', changed: [], problem: expect.stringContaining(`no longer belongs to ${base}`) })
    expect(JSON.stringify(await desk.runs(base))).not.toContain('secret.txt')
    await expect(desk.diff(runId, 's-foreign', 'secret.txt')).rejects.toThrow(/no longer belongs/)
    await expect(desk.plan(runId, [{ sessionId: 's-foreign', path: 'secret.txt', hunks: 'all' }])).rejects.toThrow(/no longer belongs/)
    // A session id that is in no run, or in another run, is refused rather than read or dropped.
    await expect(desk.plan(runId, [{ sessionId: 's-elsewhere', path: 'shared.txt', hunks: [0] }])).rejects.toThrow(/No session s-elsewhere in run_f0e1d2c3/)
    await expect(desk.test(runId, 'true', ['s-elsewhere'])).rejects.toThrow(/No session s-elsewhere/)
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(ORIGINAL)
  })

  it('git missing or too old: Run on N says which, not "not a repository", and creates nothing', async () => {
    const base = makeRepo({ 'shared.txt': ORIGINAL })
    const path = pathWithout(['git'])
    try {
      const without = new ParallelDesk({ home: join(temp, 'sous-home'), env: { ...process.env, PATH: path.path }, hub, sessions: runtime.sessions, starter: worktreeDeskStarter(runtime.worktrees) })
      await expect(without.start(base, 'hello', ['sonnet'])).rejects.toThrow(/Worktrees need git, and no git program was found on PATH/)
      const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
      writeFileSync(join(path.path, 'git'), `#!/bin/sh\nfor a in "$@"; do [ "$a" = --version ] && { echo "git version 2.19.0"; exit 0; }; done\nexec ${real} "$@"\n`, { mode: 0o755 })
      const old = new ParallelDesk({ home: join(temp, 'sous-home'), env: { ...process.env, PATH: path.path }, hub, sessions: runtime.sessions, starter: worktreeDeskStarter(runtime.worktrees) })
      await expect(old.start(base, 'hello', ['sonnet'])).rejects.toThrow(/this git is 2\.19\.0/)
      without.dispose()
      old.dispose()
    } finally {
      path.dispose()
    }
    expect(existsSync(join(base, '.claude'))).toBe(false)
  }, 60_000)

  it('a folder that is no git repository: worktrees are unavailable, said once, nothing created', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'sous-plain-'))
    await expect(desk.start(plain, 'hello', ['sonnet'])).rejects.toThrow(/need a git repository/)
    expect(existsSync(join(plain, '.claude'))).toBe(false)
    rmSync(plain, { recursive: true, force: true })
  })
})

/** A PATH whose git logs each call's subcommand (after the `-c` hardening) to a file, then runs the real git. */
function tracedGit(): { env: NodeJS.ProcessEnv; calls(): string[]; clear(): void; dispose(): void } {
  const path = pathWithout(['git'])
  const log = join(path.path, 'calls.log')
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
  writeFileSync(join(path.path, 'git'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec ${real} "$@"\n`, { mode: 0o755 })
  writeFileSync(log, '')
  const subcommand = (line: string) => line.replace(/^(?:-c \S+ )*(?:--no-optional-locks )?/, '').split(' ')[0]!
  return {
    env: { ...process.env, PATH: path.path },
    calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean).map(subcommand),
    clear: () => writeFileSync(log, ''),
    dispose: path.dispose,
  }
}

/** A base with two worktree sessions in a stored run: A edits shared.txt unstaged, B commits its edit (its fork point then needs `git merge-base`). */
function storedRun() {
  // A line of its own, so no other test's repository has the same commits (the read cache is per process).
  const base = makeRepo({ 'shared.txt': ORIGINAL, 'note.txt': `note ${randomUUID()}\n` })
  const a = addWorktree(base, 'a')
  const b = addWorktree(base, 'b')
  writeFileSync(join(a, 'shared.txt'), replaceLine(ORIGINAL, 2, 'a two'))
  writeFileSync(join(b, 'shared.txt'), replaceLine(ORIGINAL, 9, 'b nine'))
  gitSync(b, 'commit', '-qam', 'b works')
  const runId = 'run_a1b2c3d4'
  const session = (id: string, name: string, worktree: string) => ({ sessionId: id, name, branch: `worktree-${name}`, worktree, model: 'sonnet' })
  mkdirSync(join(temp, 'sous-home', 'parallel', 'runs'), { recursive: true })
  writeFileSync(join(temp, 'sous-home', 'parallel', 'runs', `${runId}.json`), JSON.stringify({ runId, projectPath: base, prompt: 'p', createdAt: new Date().toISOString(), sessions: [session('sa', 'a', a), session('sb', 'b', b)] }))
  return { base, a, b, runId }
}

const changedOf = (run: { sessions: Array<{ changed: Array<{ path: string; hunks: number }> }> }) => run.sessions.map((session) => session.changed.map((file) => `${file.path} ${file.hunks}`))

describe('Reading ahead for the compare view (real git)', () => {
  it("opening a project reads its runs ahead: the view's first open then only lists the working trees, and every write since still shows", async () => {
    const { base, a, b } = storedRun()
    const traced = tracedGit()
    const core = createCore({ sousHome: join(temp, 'core-home'), transport: 'electron', keyStore: new MemoryKeyStore({}), onWarning: () => {}, parallel: new ParallelDesk({ home: join(temp, 'sous-home'), env: traced.env, hub, sessions: runtime.sessions, starter: worktreeDeskStarter(runtime.worktrees) }) })
    const sender = { transport: 'electron' as const, frameUrl: APP_URL }
    const runs = async () => {
      const result = await core.router.invoke('parallel.runs', { projectPath: base }, sender)
      if (!result.ok) throw new Error(result.error.message)
      return result.value as Array<{ sessions: Array<{ changed: Array<{ path: string; hunks: number }> }> }>
    }
    try {
      expect((await core.router.invoke('project.open', { path: base }, sender)).ok).toBe(true)
      // Nothing but the open asked: the fork point's files were read (one batch per worktree) and B's merge base found.
      await expect.poll(() => traced.calls().filter((call) => call === 'cat-file' || call === 'merge-base').sort(), { timeout: 20_000 }).toEqual(['cat-file', 'cat-file', 'merge-base'])
      await runs() // shares the read ahead if it is still under way
      traced.clear()
      expect(changedOf((await runs())[0]!)).toEqual([['shared.txt 1'], ['shared.txt 1']])
      // The first open: the working-tree listing of each worktree, nothing else (A, at its fork
      // point, in one `git status`; B, a commit past it, diffed against it beside its untracked files).
      expect(traced.calls().sort()).toEqual(['diff', 'ls-files', 'status'])
      // Writes after the read ahead: an unstaged edit and a new file in A, a new commit in B, then the
      // base moves and A takes it in (A's fork point moves). Each shows at the next read.
      writeFileSync(join(a, 'note.txt'), 'edited by a\n')
      writeFileSync(join(a, 'new.txt'), 'new in a\n')
      writeFileSync(join(b, 'shared.txt'), replaceLine(replaceLine(ORIGINAL, 9, 'b nine'), 1, 'b one'))
      gitSync(b, 'commit', '-qam', 'b again')
      expect(changedOf((await runs())[0]!)).toEqual([['new.txt 1', 'note.txt 1', 'shared.txt 1'], ['shared.txt 2']])
      writeFileSync(join(base, 'other.txt'), 'the base moved\n')
      gitSync(base, 'add', '-A')
      gitSync(base, 'commit', '-qm', 'base moves')
      gitSync(a, 'add', '-A')
      gitSync(a, 'commit', '-qm', 'a works')
      gitSync(a, 'merge', '-q', '--no-edit', 'main')
      traced.clear()
      expect(changedOf((await runs())[0]!)).toEqual([['new.txt 1', 'note.txt 1', 'shared.txt 1'], ['shared.txt 2']])
      // New commits are new keys: both merge bases asked again, A's new fork point's files read.
      expect(traced.calls().filter((call) => call === 'merge-base')).toHaveLength(2)
      expect(traced.calls()).toContain('cat-file')
    } finally {
      await core.dispose()
      traced.dispose()
    }
  }, 60_000)

  it("a commit through the session's actions reads its run ahead, so the next open asks git for no merge base", async () => {
    const { a, runId } = storedRun()
    const traced = tracedGit()
    const own = new ParallelDesk({ home: join(temp, 'sous-home'), env: traced.env, hub, sessions: runtime.sessions, starter: worktreeDeskStarter(runtime.worktrees) })
    try {
      await own.run(runId)
      writeFileSync(join(a, 'more.txt'), 'more\n')
      traced.clear()
      await own.actions.commit(runId, 'sa', 'a works')
      // The read ahead after the commit: A's new merge base, then its listing (the base remembered by then).
      const after = () => traced.calls().slice(traced.calls().indexOf('commit'))
      // (A's diff runs only once its merge base is known; B's fork point was read before.)
      await expect.poll(() => ({ mergeBases: after().filter((call) => call === 'merge-base').length, diffs: after().filter((call) => call === 'diff').length }), { timeout: 20_000 }).toEqual({ mergeBases: 1, diffs: 2 })
      traced.clear()
      const view = await own.run(runId)
      expect(traced.calls()).not.toContain('merge-base')
      expect(changedOf(view)).toEqual([['more.txt 1', 'shared.txt 1'], ['shared.txt 1']])
    } finally {
      own.dispose()
      traced.dispose()
    }
  }, 60_000)
})
