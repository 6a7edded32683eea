import { describe, expect, it } from 'vitest'
import type { SessionSummary, WorktreeRow } from '../../../shared/ipc/contract'
import { cleanupReason, cleanupRows, looksLikeWorktreeFolder, mergeSessionLists, removedSentence, sessionWorktrees, unavailableReason, worktreeNameProblem } from './worktree-model'

const base = '/repo'
const row = (name: string, patch: Partial<WorktreeRow> = {}): WorktreeRow => ({
  name,
  path: `${base}/.claude/worktrees/${name}`,
  branch: `worktree-${name}`,
  repoRoot: base,
  baseCommit: 'abc',
  baseRef: 'HEAD',
  owner: 'session',
  createdAt: '2026-01-01T00:00:00Z',
  sessionId: `s-${name}`,
  state: 'stored',
  ...patch,
})
const summary = (sessionId: string, updatedAt: string, projectPath = base): SessionSummary => ({ sessionId, projectPath, title: sessionId, createdAt: updatedAt, updatedAt, messageCount: 1 })

describe('worktree facts', () => {
  it('the base lists the sessions of worktrees started as sessions, live or stored, made from it', () => {
    const rows = [row('a', { state: 'live' }), row('b'), row('gone', { state: 'orphan' }), row('agent', { owner: 'agent' }), row('entered', { owner: 'entered' }), row('other', { repoRoot: '/elsewhere' }), row('bare', { sessionId: undefined })]
    expect(sessionWorktrees(rows, base).map((r) => r.name)).toEqual(['a', 'b'])
    expect(sessionWorktrees(rows).map((r) => r.name)).toEqual(['a', 'b', 'other'])
    // A worktree opened as a project lists none of its siblings.
    expect(sessionWorktrees(rows, `${base}/.claude/worktrees/a`)).toEqual([])
  })

  it('offers for cleanup exactly the orphaned, unregistered and missing worktrees, each with its reason', () => {
    const rows = [row('live', { state: 'live' }), row('stored'), row('orphan', { state: 'orphan', sessionId: '12345678-dead' }), row('cc', { state: 'unregistered', sessionId: undefined }), row('gone', { state: 'missing' })]
    expect(cleanupRows(rows).map((r) => r.name)).toEqual(['orphan', 'cc', 'gone'])
    expect(cleanupRows(rows).map(cleanupReason)).toEqual(['its session 12345678 is gone', 'not made by Sous (Claude Code or by hand)', 'its folder is gone; only the record is left'])
  })

  it('merges worktree sessions into the base list newest first, once each', () => {
    const own = [summary('own-new', '2026-01-03'), summary('own-old', '2026-01-01')]
    const wt = [summary('wt', '2026-01-02', `${base}/.claude/worktrees/a`), summary('own-new', '2026-01-03')]
    expect(mergeSessionLists(own, [wt]).map((s) => s.sessionId)).toEqual(['own-new', 'wt', 'own-old'])
    expect(mergeSessionLists(own, [])).toEqual(own)
  })

  it('checks a typed name as the core does first, and leaves an empty one to a random name', () => {
    expect(worktreeNameProblem('')).toBeNull()
    expect(worktreeNameProblem('fix/login')).toBeNull()
    expect(worktreeNameProblem('..')).toBe('".." is not a worktree name: ".." would leave .claude/worktrees.')
    expect(worktreeNameProblem('a/../b')).toContain('would leave .claude/worktrees')
    expect(worktreeNameProblem('has space')).toContain('is not a worktree name')
    expect(worktreeNameProblem('x.lock')).toContain('git does not accept "x.lock"')
    expect(worktreeNameProblem('-rf')).toContain('git does not accept "-rf"')
    expect(worktreeNameProblem('a'.repeat(65))).toContain('at most 64 characters')
  })

  it('asks only about folders laid out as worktrees, and says why worktrees are unavailable', () => {
    expect(looksLikeWorktreeFolder('/repo/.claude/worktrees/fix+login')).toBe(true)
    expect(looksLikeWorktreeFolder('/repo')).toBe(false)
    expect(looksLikeWorktreeFolder('/repo/.claude/worktrees/a/deeper')).toBe(false)
    expect(unavailableReason(undefined)).toBeNull()
    expect(unavailableReason({ available: true, gitVersion: '2.43', repoRoot: base })).toBeNull()
    expect(unavailableReason({ available: false, reason: 'git-missing', message: 'git was not found: install git 2.25 or newer.' })).toBe('git was not found: install git 2.25 or newer.')
  })

  it('says what a removal took, and what a forced one discarded', () => {
    expect(removedSentence({ removed: true, path: '/repo/.claude/worktrees/a', branch: 'worktree-a' })).toBe('Removed the worktree /repo/.claude/worktrees/a and its branch worktree-a.')
    const discarded = { uncommitted: ['x.txt'], commits: [{ sha: 'abc', subject: 'wip' }], summary: '1 uncommitted file and 1 commit on worktree-a' }
    expect(removedSentence({ removed: true, path: '/w', branch: 'worktree-a', discarded })).toBe('Removed the worktree /w and its branch worktree-a. Discarded: 1 uncommitted file and 1 commit on worktree-a.')
    expect(removedSentence({ removed: true, path: '/w', branch: 'b', discarded: { uncommitted: [], commits: [], summary: 'nothing' } })).toBe('Removed the worktree /w and its branch b.')
  })
})
