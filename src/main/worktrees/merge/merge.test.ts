import { readFileSync, existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { addWorktree, gitSync, lines, makeRepo, replaceLine, writeFiles } from '../../../../test/support/worktree-repos'
import { applyMerge } from './apply'
import { hasConflictMarkers } from './merge-file'
import { planMerge } from './plan'
import type { MergePick } from './plan-types'
import { readSources } from './source'

const ORIGINAL = lines(30)

/** A base with `shared.txt` and three worktree sessions A, B, C that all edit it (and C adds a file). */
function threeSessions() {
  const base = makeRepo({ 'shared.txt': ORIGINAL, 'keep.txt': 'untouched\n' })
  const a = addWorktree(base, 'a')
  const b = addWorktree(base, 'b')
  const c = addWorktree(base, 'c')
  // A: hunk 1 at line 3, hunk 2 at line 20.
  writeFiles(a, { 'shared.txt': replaceLine(replaceLine(ORIGINAL, 3, 'A three'), 20, 'A twenty') })
  // B: hunk 1 at line 3 (the same line as A's first), hunk 2 at line 12; B commits its work.
  writeFiles(b, { 'shared.txt': replaceLine(replaceLine(ORIGINAL, 3, 'B three'), 12, 'B twelve') })
  gitSync(b, 'commit', '-qam', 'B edits')
  // C: line 25, and a new file.
  writeFiles(c, { 'shared.txt': replaceLine(ORIGINAL, 25, 'C twenty-five'), 'c-only.txt': 'from C\n' })
  const sessions = [
    { sessionId: 'sa', label: 'session A', worktree: a },
    { sessionId: 'sb', label: 'session B', worktree: b },
    { sessionId: 'sc', label: 'session C', worktree: c },
  ]
  return { base, sessions }
}

const fingerprints = (plan: Awaited<ReturnType<typeof planMerge>>) => Object.fromEntries(plan.files.map((file) => [file.path, file.fingerprint]))

describe('merging worktree sessions into the base, hunk by hunk (real git)', () => {
  it('picking A1 and B2 and rejecting C leaves the base with exactly those two changes and nothing else', async () => {
    const { base, sessions } = threeSessions()
    const sources = await readSources(base, sessions)
    expect([...sources.get('sa')!.files.keys()]).toEqual(['shared.txt'])
    expect(sources.get('sa')!.files.get('shared.txt')!.hunks).toBe(2)
    expect([...sources.get('sc')!.files.keys()]).toEqual(['c-only.txt', 'shared.txt'])
    const picks: MergePick[] = [
      { sessionId: 'sa', path: 'shared.txt', hunks: [0] },
      { sessionId: 'sb', path: 'shared.txt', hunks: [1] },
    ]
    const plan = await planMerge(base, sources, picks)
    // Nothing in the base changes until Apply.
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(ORIGINAL)
    expect(plan.files).toHaveLength(1)
    expect(plan.files[0]!.conflicts).toEqual([])
    const outcome = await applyMerge(base, sources, { picks, fingerprints: fingerprints(plan) })
    expect(outcome).toEqual({ written: ['shared.txt'], deleted: [], heldBack: [] })
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(replaceLine(replaceLine(ORIGINAL, 3, 'A three'), 12, 'B twelve'))
    expect(existsSync(join(base, 'c-only.txt'))).toBe(false)
    // Nothing else: git sees one modified file in the base.
    expect(gitSync(base, 'status', '--porcelain')).toBe(' M shared.txt\n')
  })

  it('a hunk that conflicts with another picked hunk is previewed three-way and not applied', async () => {
    const { base, sessions } = threeSessions()
    const sources = await readSources(base, sessions)
    const picks: MergePick[] = [
      { sessionId: 'sa', path: 'shared.txt', hunks: [0] },
      { sessionId: 'sb', path: 'shared.txt', hunks: [0, 1] },
    ]
    const plan = await planMerge(base, sources, picks)
    const file = plan.files[0]!
    expect(file.conflicts).toEqual([{ sessionId: 'sb', hunk: 0, with: { sessionId: 'sa', hunk: 0 }, why: 'session A changes the same lines' }])
    expect(file.preview).toHaveLength(1)
    const three = file.preview[0]!
    expect(three.base).toBe(ORIGINAL)
    expect(three.ours).toContain('A three')
    expect(three.theirs).toContain('B three')
    expect(hasConflictMarkers(three.merged)).toBe(true)
    expect(three.merged).toMatch(/<<<<<<< base \(with the other picks\)\n[\s\S]*A three[\s\S]*\|\|\|\|\|\|\| fork point [0-9a-f]{8}\nline 3\n=======\nB three\n>>>>>>> session B/)
    const outcome = await applyMerge(base, sources, { picks, fingerprints: fingerprints(plan) })
    expect(outcome.heldBack).toEqual([{ ...file.conflicts[0]!, path: 'shared.txt' }])
    // A1 and B2 are in; B1 is not.
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(replaceLine(replaceLine(ORIGINAL, 3, 'A three'), 12, 'B twelve'))
  })

  it('a hunk that conflicts with the base is held back until resolved; the resolution is what Apply writes', async () => {
    const { base, sessions } = threeSessions()
    // The user committed a change of line 20 in the base after the sessions forked.
    writeFileSync(join(base, 'shared.txt'), replaceLine(ORIGINAL, 20, 'base twenty'))
    gitSync(base, 'commit', '-qam', 'base edit')
    const sources = await readSources(base, sessions)
    const picks: MergePick[] = [{ sessionId: 'sa', path: 'shared.txt', hunks: 'all' }]
    const plan = await planMerge(base, sources, picks)
    const file = plan.files[0]!
    expect(file.conflicts).toEqual([{ sessionId: 'sa', hunk: 1, with: 'base', why: 'the base changed these lines since the session forked' }])
    expect(file.result).toBe(replaceLine(replaceLine(ORIGINAL, 3, 'A three'), 20, 'base twenty'))
    expect(file.preview[0]!.merged).toContain('base twenty')
    expect(file.preview[0]!.merged).toContain('A twenty')
    // Nothing changed yet.
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(replaceLine(ORIGINAL, 20, 'base twenty'))
    // A resolution with markers left in is refused; a finished one is written.
    await expect(applyMerge(base, sources, { picks, fingerprints: fingerprints(plan), resolutions: { 'shared.txt': file.preview[0]!.merged } })).rejects.toThrow(/still has conflict markers/)
    const resolved = replaceLine(replaceLine(ORIGINAL, 3, 'A three'), 20, 'both twenty')
    const again = await planMerge(base, sources, picks, { 'shared.txt': resolved })
    expect(again.files[0]!.resolved).toBe(true)
    const outcome = await applyMerge(base, sources, { picks, fingerprints: fingerprints(again), resolutions: { 'shared.txt': resolved } })
    expect(outcome.heldBack).toEqual([])
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(resolved)
  })

  it('refuses files with uncommitted user changes in the base unless confirmed, and a stale preview', async () => {
    const { base, sessions } = threeSessions()
    writeFileSync(join(base, 'shared.txt'), `${ORIGINAL}user's unsaved line\n`)
    const sources = await readSources(base, sessions)
    const picks: MergePick[] = [{ sessionId: 'sa', path: 'shared.txt', hunks: [0] }]
    const plan = await planMerge(base, sources, picks)
    expect(plan.files[0]!.dirty).toBe(true)
    await expect(applyMerge(base, sources, { picks, fingerprints: fingerprints(plan) })).rejects.toThrow(/shared.txt has uncommitted changes in the base/)
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(`${ORIGINAL}user's unsaved line\n`)
    // The base changes after the preview: refused as stale.
    writeFileSync(join(base, 'shared.txt'), `${ORIGINAL}edited again\n`)
    await expect(applyMerge(base, sources, { picks, fingerprints: fingerprints(plan), confirmDirty: ['shared.txt'] })).rejects.toThrow(/changed since the preview/)
    const fresh = await planMerge(base, sources, picks)
    await applyMerge(base, sources, { picks, fingerprints: fingerprints(fresh), confirmDirty: ['shared.txt'] })
    expect(readFileSync(join(base, 'shared.txt'), 'utf8')).toBe(replaceLine(`${ORIGINAL}edited again\n`, 3, 'A three'))
  })

  it("never overwrites the user's untracked or gitignored file in the base with a session's added file unless confirmed", async () => {
    const base = makeRepo({ '.gitignore': '.claude/worktrees/\nlocal.env\n', 'a.txt': 'a\n' })
    const session = addWorktree(base, 's')
    writeFiles(session, { 'new.txt': 'from the session\n', 'local.env': 'SESSION=1\n' })
    // The session commits its local.env although the project ignores it (git add -f).
    gitSync(session, 'add', '-f', 'local.env', 'new.txt')
    gitSync(session, 'commit', '-qm', 'add files')
    writeFiles(base, { 'new.txt': "the user's own new file\n", 'local.env': 'USER_SECRET=1\n' })
    const sessions = [{ sessionId: 'ss', label: 'session S', worktree: session }]
    const sources = await readSources(base, sessions)
    const picks: MergePick[] = [{ sessionId: 'ss', path: 'new.txt', hunks: 'all' }, { sessionId: 'ss', path: 'local.env', hunks: 'all' }]
    const plan = await planMerge(base, sources, picks)
    expect(plan.files.filter((file) => file.dirty).map((file) => file.path).sort()).toEqual(['local.env', 'new.txt'])
    // The user's files differ from the session's: each is held back as a conflict with the base.
    expect(await applyMerge(base, sources, { picks, fingerprints: fingerprints(plan) })).toMatchObject({ written: [], heldBack: [{ path: 'local.env', with: 'base' }, { path: 'new.txt', with: 'base' }] })
    // Resolved, the file is still the user's uncommitted one: Apply asks first, even for the ignored one.
    const resolutions = { 'new.txt': 'merged by hand\n', 'local.env': 'USER_SECRET=1\nSESSION=1\n' }
    const resolved = await planMerge(base, sources, picks, resolutions)
    await expect(applyMerge(base, sources, { picks, resolutions, fingerprints: fingerprints(resolved) })).rejects.toThrow(/local.env, new.txt have uncommitted changes in the base/)
    expect(readFileSync(join(base, 'new.txt'), 'utf8')).toBe("the user's own new file\n")
    expect(readFileSync(join(base, 'local.env'), 'utf8')).toBe('USER_SECRET=1\n')
    await applyMerge(base, sources, { picks, resolutions, fingerprints: fingerprints(resolved), confirmDirty: ['new.txt', 'local.env'] })
    expect(readFileSync(join(base, 'local.env'), 'utf8')).toBe('USER_SECRET=1\nSESSION=1\n')
  })

  it('whole files: an added file is created, a binary one copied, a deletion removes; paths that escape are refused', async () => {
    const base = makeRepo({ 'gone.txt': 'bye\n', 'img.bin': 'old\0bytes' })
    const a = addWorktree(base, 'a')
    writeFiles(a, { 'new/dir/file.txt': 'hello\n', 'img.bin': 'new\0bytes' })
    gitSync(a, 'rm', '-q', 'gone.txt')
    const sources = await readSources(base, [{ sessionId: 'sa', label: 'A', worktree: a }])
    const picks: MergePick[] = ['new/dir/file.txt', 'img.bin', 'gone.txt'].map((path) => ({ sessionId: 'sa', path, hunks: 'all' as const }))
    const plan = await planMerge(base, sources, [...picks, { sessionId: 'sa', path: '../outside.txt', hunks: 'all' }])
    expect(plan.refused).toEqual([{ sessionId: 'sa', path: '../outside.txt', why: 'a path that leaves the checkout' }])
    expect(plan.files.map((file) => [file.path, file.action])).toEqual([['gone.txt', 'delete'], ['img.bin', 'copy'], ['new/dir/file.txt', 'write']])
    await applyMerge(base, sources, { picks, fingerprints: fingerprints(plan) })
    expect(readFileSync(join(base, 'new/dir/file.txt'), 'utf8')).toBe('hello\n')
    expect(readFileSync(join(base, 'img.bin'), 'utf8')).toBe('new\0bytes')
    expect(existsSync(join(base, 'gone.txt'))).toBe(false)
  })
})
