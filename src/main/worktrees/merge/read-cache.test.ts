import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { addWorktree, gitSync, lines, makeRepo, replaceLine, writeFiles } from '../../../../test/support/worktree-repos'
import { applyMerge } from './apply'
import { headOf } from './changes'
import { planMerge } from './plan'
import type { MergePick } from './plan-types'
import { headFromFiles } from './read-cache'
import { readSources } from './source'

const ORIGINAL = lines(30)

function oneSession() {
  const base = makeRepo({ 'shared.txt': ORIGINAL, 'other.txt': 'other\n' })
  const worktree = addWorktree(base, 'a')
  writeFiles(worktree, { 'shared.txt': replaceLine(ORIGINAL, 3, 'A three') })
  return { base, worktree, sessions: [{ sessionId: 'sa', label: 'session A', worktree }] }
}

describe("the compare view's reads keep only what cannot go stale (real git)", () => {
  it('a change in a worktree after the first read shows up at the next read', async () => {
    const { base, worktree, sessions } = oneSession()
    const first = (await readSources(base, sessions)).get('sa')!
    expect([...first.files.keys()]).toEqual(['shared.txt'])
    // Unstaged edit of the same file, a new untracked file, an edit of another tracked file:
    // neither HEAD nor the index changes.
    writeFiles(worktree, { 'shared.txt': replaceLine(replaceLine(ORIGINAL, 3, 'A three'), 20, 'A twenty'), 'new.txt': 'new\n', 'other.txt': 'edited\n' })
    const second = (await readSources(base, sessions)).get('sa')!
    expect([...second.files.keys()]).toEqual(['new.txt', 'other.txt', 'shared.txt'])
    expect(second.files.get('shared.txt')!.hunks).toBe(2)
    expect(second.files.get('other.txt')!.after).toBe('edited\n')
    // A commit in the worktree (HEAD moves), then a file put back as it was: gone from the changes.
    gitSync(worktree, 'add', '-A')
    gitSync(worktree, 'commit', '-qm', 'A works')
    writeFiles(worktree, { 'other.txt': 'other\n' })
    const third = (await readSources(base, sessions)).get('sa')!
    expect([...third.files.keys()]).toEqual(['new.txt', 'shared.txt'])
  })

  it('a worktree at its fork point (listed by one git status) shows what the diff against the fork would, and nothing more', async () => {
    const base = makeRepo({ 'shared.txt': ORIGINAL, 'other.txt': 'other\n', 'gone.txt': 'gone\n', 'unindexed.txt': 'unindexed\n' })
    const worktree = addWorktree(base, 'a')
    const sessions = [{ sessionId: 'sa', label: 'session A', worktree }]
    // Staged and put back as it was; staged as new and then deleted; deleted from disk; out of the
    // index but still on disk; staged new; untracked; edited unstaged.
    writeFiles(worktree, { 'other.txt': 'staged for a while\n', 'fleeting.txt': 'fleeting\n', 'staged.txt': 'staged\n', 'untracked.txt': 'untracked\n', 'shared.txt': replaceLine(ORIGINAL, 3, 'A three') })
    gitSync(worktree, 'add', 'other.txt', 'fleeting.txt', 'staged.txt')
    writeFiles(worktree, { 'other.txt': 'other\n' })
    rmSync(join(worktree, 'fleeting.txt'))
    rmSync(join(worktree, 'gone.txt'))
    gitSync(worktree, 'rm', '-q', '--cached', 'unindexed.txt')
    const read = (await readSources(base, sessions)).get('sa')!
    expect([...read.files.values()].map((file) => `${file.path} ${file.change}`)).toEqual(['gone.txt deleted', 'shared.txt modified', 'staged.txt added', 'unindexed.txt deleted', 'untracked.txt added'])
    expect(read.files.get('shared.txt')!.before).toBe(ORIGINAL)
    expect(read.files.get('gone.txt')!.before).toBe('gone\n')
  })

  it('a base that moves and is taken into the worktree moves the fork point', async () => {
    const { base, worktree, sessions } = oneSession()
    const before = (await readSources(base, sessions)).get('sa')!
    writeFiles(base, { 'other.txt': 'the base moved\n' })
    gitSync(base, 'commit', '-qam', 'base moves')
    gitSync(worktree, 'merge', '-q', '--no-edit', 'main')
    const after = (await readSources(base, sessions)).get('sa')!
    expect(after.fork).not.toBe(before.fork)
    expect(after.fork).toBe(gitSync(base, 'rev-parse', 'HEAD').trim())
    // The worktree now holds the base's other.txt: not a change of the session's.
    expect([...after.files.keys()]).toEqual(['shared.txt'])
    expect(after.files.get('shared.txt')!.before).toBe(ORIGINAL)
  })

  it('reads HEAD from the files where they are plain, and asks git where the ref is packed', async () => {
    const { base, worktree } = oneSession()
    const expected = gitSync(worktree, 'rev-parse', 'HEAD').trim()
    expect(await headFromFiles(worktree)).toBe(expected)
    expect(await headFromFiles(base)).toBe(gitSync(base, 'rev-parse', 'HEAD').trim())
    gitSync(base, 'pack-refs', '--all')
    expect(await headFromFiles(worktree)).toBeUndefined()
    expect(await headOf(worktree)).toBe(expected)
    gitSync(worktree, 'checkout', '-q', '--detach')
    expect(await headFromFiles(worktree)).toBe(expected)
  })
})

describe('Apply writes every file at once and still all or nothing (real git)', () => {
  it('a write that fails puts back every file already written', async () => {
    const base = makeRepo({ 'shared.txt': ORIGINAL, 'blocker': 'a file where the session has a folder\n' })
    const worktree = addWorktree(base, 'a')
    rmSync(join(worktree, 'blocker'))
    writeFiles(worktree, { 'shared.txt': replaceLine(ORIGINAL, 3, 'A three'), 'blocker/inside.txt': 'inside\n' })
    const sessions = [{ sessionId: 'sa', label: 'session A', worktree }]
    const picks: MergePick[] = [
      { sessionId: 'sa', path: 'shared.txt', hunks: 'all' },
      { sessionId: 'sa', path: 'blocker/inside.txt', hunks: 'all' },
    ]
    const plan = await planMerge(base, await readSources(base, sessions), picks)
    const fingerprints = Object.fromEntries(plan.files.map((file) => [file.path, file.fingerprint]))
    await expect(applyMerge(base, await readSources(base, sessions), { picks, fingerprints })).rejects.toThrow(/Nothing was applied/)
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(ORIGINAL)
    expect(gitSync(base, 'status', '--porcelain')).toBe('')
    // And with the obstacle gone, both land.
    rmSync(join(base, 'blocker'))
    writeFileSync(join(base, '.keep'), '')
    gitSync(base, 'add', '-A')
    gitSync(base, 'commit', '-qm', 'no blocker')
    const again = await planMerge(base, await readSources(base, sessions), picks)
    const outcome = await applyMerge(base, await readSources(base, sessions), { picks, fingerprints: Object.fromEntries(again.files.map((file) => [file.path, file.fingerprint])) })
    expect(outcome.written.sort()).toEqual(['blocker/inside.txt', 'shared.txt'])
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(replaceLine(ORIGINAL, 3, 'A three'))
  })
})
