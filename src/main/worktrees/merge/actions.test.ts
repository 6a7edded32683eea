import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ModelCache } from '../../services/model/cache'
import { NodePtyService } from '../../pty/node-pty-service'
import { textReply } from '../../../../test/model-server'
import { useModelServer } from '../../../../test/model-server/vitest'
import { pathWithout } from '../../../../test/support/path-without'
import { addWorktree, gitSync, lines, makeRepo, replaceLine, writeFiles } from '../../../../test/support/worktree-repos'
import { commitAll, draftCommitMessage } from './commit'
import { prAvailability } from './pull-request'
import { runTestCommand } from './test-run'
import { applyUpdate, previewUpdate } from './update-from-base'

const server = useModelServer()
const pty = new NodePtyService()
afterAll(() => pty.dispose())

describe('a worktree session: update from base, commit, pull request, test command (real git, real PTYs)', () => {
  it('previews the base merged into the worktree as a diff, then merges it; a stale preview is refused', async () => {
    const base = makeRepo({ 'a.txt': lines(10) })
    const worktree = addWorktree(base, 'w')
    writeFiles(worktree, { 'mine.txt': 'session work\n' })
    gitSync(worktree, 'add', '-A')
    gitSync(worktree, 'commit', '-qm', 'session work')
    writeFiles(base, { 'a.txt': replaceLine(lines(10), 5, 'base five') })
    gitSync(base, 'commit', '-qam', 'base moved')
    const preview = await previewUpdate(base, worktree)
    expect(preview.upToDate).toBe(false)
    expect(preview.conflicts).toEqual([])
    expect(preview.files).toEqual([{ path: 'a.txt', change: 'modified', before: lines(10), after: replaceLine(lines(10), 5, 'base five') }])
    // The preview touched nothing.
    expect(readFileSync(join(worktree, 'a.txt'), 'utf8')).toBe(lines(10))
    await expect(applyUpdate(base, worktree, { mode: 'merge', baseHead: preview.head, head: preview.head })).rejects.toThrow(/moved since the preview/)
    const { head } = await applyUpdate(base, worktree, { mode: 'merge', baseHead: preview.baseHead, head: preview.head })
    expect(head).not.toBe(preview.head)
    expect(readFileSync(join(worktree, 'a.txt'), 'utf8')).toBe(replaceLine(lines(10), 5, 'base five'))
    expect((await previewUpdate(base, worktree)).upToDate).toBe(true)
  })

  it('an update that would conflict is previewed with its conflicts and refused, leaving the worktree as it was', async () => {
    const base = makeRepo({ 'a.txt': lines(10) })
    const worktree = addWorktree(base, 'w')
    writeFiles(worktree, { 'a.txt': replaceLine(lines(10), 5, 'session five') })
    gitSync(worktree, 'commit', '-qam', 'session')
    writeFiles(base, { 'a.txt': replaceLine(lines(10), 5, 'base five') })
    gitSync(base, 'commit', '-qam', 'base')
    const preview = await previewUpdate(base, worktree)
    expect(preview.conflicts).toEqual(['a.txt'])
    await expect(applyUpdate(base, worktree, { mode: 'rebase', baseHead: preview.baseHead, head: preview.head })).rejects.toThrow(/would conflict in a.txt/)
    expect(gitSync(worktree, 'status', '--porcelain')).toBe('')
  })

  it('commits the worktree with a message the small model drafts (the scripted server behind the real SDK)', async () => {
    const base = makeRepo({ 'a.txt': 'one\n' })
    const worktree = addWorktree(base, 'w')
    await expect(draftCommitMessage(worktree, async () => 'never asked')).rejects.toThrow(/Nothing to commit/)
    writeFiles(worktree, { 'a.txt': 'two\n', 'b.txt': 'new\n' })
    server.setScenario([textReply('```\nChange a.txt to two and add b.txt\n```')])
    const models = new ModelCache({ env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-ant-test' } })
    const message = await draftCommitMessage(worktree, await models.askModel(), { prompt: 'Make it two' })
    expect(message).toBe('Change a.txt to two and add b.txt')
    const asked = JSON.stringify(server.requests[0]!.body)
    expect(asked).toContain('b.txt')
    expect(asked).toContain('Make it two')
    expect(server.requests[0]!.body['model']).toMatch(/haiku/)
    const { commit } = await commitAll(worktree, message)
    expect(gitSync(worktree, 'log', '-1', '--format=%H %s').trim()).toBe(`${commit} Change a.txt to two and add b.txt`)
    expect(gitSync(worktree, 'status', '--porcelain')).toBe('')
    // The base is untouched.
    expect(readFileSync(join(base, 'a.txt'), 'utf8')).toBe('one\n')
    await expect(commitAll(worktree, 'again')).rejects.toThrow(/Nothing to commit/)
  })

  it('Open PR says why it is unavailable when gh is not installed', async () => {
    const base = makeRepo({ 'a.txt': 'one\n' })
    const without = pathWithout(['gh'])
    try {
      expect(await prAvailability(base, { ...process.env, PATH: without.path })).toEqual({ available: false, reason: 'Open PR needs the GitHub CLI (gh), which is not installed.' })
    } finally {
      without.dispose()
    }
  })

  it("runs the user's test command in each worktree as a real child process and reports its result", async () => {
    const base = makeRepo({ 'ok.txt': 'yes\n' })
    const good = addWorktree(base, 'good')
    const bad = addWorktree(base, 'bad')
    writeFileSync(join(bad, 'ok.txt'), 'no\n')
    const command = 'grep -q yes ok.txt && echo "tests passed in $(basename "$PWD")" || { echo "tests failed in $(basename "$PWD")"; exit 3; }'
    const [passed, failed] = await Promise.all([runTestCommand(pty, { cwd: good, command, shell: '/bin/sh' }), runTestCommand(pty, { cwd: bad, command, shell: '/bin/sh' })])
    expect(passed).toMatchObject({ exitCode: 0, timedOut: false })
    expect(passed.output).toContain('tests passed in good')
    expect(failed).toMatchObject({ exitCode: 3, timedOut: false })
    expect(failed.output).toContain('tests failed in bad')
    const slow = await runTestCommand(pty, { cwd: good, command: 'sleep 5', shell: '/bin/sh', timeoutMs: 200 })
    expect(slow).toMatchObject({ exitCode: null, timedOut: true })
  })
})
