import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

/**
 * Real git repositories for the worktree merge tests and bench: a base checkout with a first
 * commit, and worktrees added with plain `git worktree add` where Claude Code puts them
 * (`.claude/worktrees/<name>`, branch `worktree-<name>`).
 */

/** Runs git in `cwd` with a fixed identity; returns stdout. */
export function gitSync(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'Test', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 'Test', GIT_COMMITTER_EMAIL: 't@example.invalid' },
  })
}

/** Writes `files` (path → text) under `root`, creating folders. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
}

/** A fresh repository (canonical path) holding `files` in its first commit; the identity is in its config, so commits made by the code under test work. */
export function makeRepo(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sous-wt-')))
  gitSync(root, 'init', '-q', '-b', 'main')
  gitSync(root, 'config', 'user.name', 'Test')
  gitSync(root, 'config', 'user.email', 't@example.invalid')
  writeFiles(root, { '.gitignore': '.claude/worktrees/\n', ...files })
  gitSync(root, 'add', '-A')
  gitSync(root, 'commit', '-q', '-m', 'first')
  return root
}

/** Adds worktree `name` of `root` at HEAD; returns its folder. */
export function addWorktree(root: string, name: string): string {
  const folder = join(root, '.claude', 'worktrees', name)
  gitSync(root, 'worktree', 'add', '-q', '-b', `worktree-${name}`, folder, 'HEAD')
  return folder
}

/** `count` numbered lines ("line 1\n" …). */
export function lines(count: number, word = 'line'): string {
  return Array.from({ length: count }, (_, i) => `${word} ${i + 1}\n`).join('')
}

/** `text` with 1-based line `at` replaced by `by`. */
export function replaceLine(text: string, at: number, by: string): string {
  const all = text.split('\n')
  all[at - 1] = by
  return all.join('\n')
}
