import { AppError } from '../../../shared/ipc/result'
import { headOf } from './changes'
import { git, gitOut } from './git'

/** A side question to a small model: the system prompt, the question, and the reply's text. */
export type AskModel = (system: string, user: string, signal: AbortSignal) => Promise<string>

/** Longest diff the drafting request quotes; the rest is summarised by the file list. */
const MAX_DIFF = 24_000

const SYSTEM = `You write git commit messages. Reply with the message only: a subject line of at most 72 characters in the imperative mood, then (if the change needs it) a blank line and a short body saying what changed and why. No code fences, no quotes, no preamble.`

/** What the drafting request sees: the files the commit would take and their diff against HEAD (cut). */
export async function commitContext(worktree: string, env?: NodeJS.ProcessEnv): Promise<{ files: string[]; diff: string }> {
  const options = { cwd: worktree, ...(env && { env }) }
  const status = await gitOut(['status', '--porcelain=v1', '-z', '--untracked-files=all'], options)
  const files = status.split('\0').filter((entry) => entry.length > 3).map((entry) => entry.slice(3))
  const diff = await git(['diff', 'HEAD', '--no-ext-diff', '--no-textconv', '--stat', '--patch'], options)
  return { files, diff: diff.ok ? diff.stdout.slice(0, MAX_DIFF) : '' }
}

/**
 * Drafts the commit message of a worktree's uncommitted changes with one small-model side request
 * (the session's model service). Refuses a worktree with nothing to commit; a reply with fences or
 * quotes around it is unwrapped. The user edits the draft before it is used.
 */
export async function draftCommitMessage(worktree: string, ask: AskModel, context: { prompt?: string; signal?: AbortSignal } = {}, env?: NodeJS.ProcessEnv): Promise<string> {
  const { files, diff } = await commitContext(worktree, env)
  if (files.length === 0) throw new AppError('CONFLICT', 'Nothing to commit in this worktree.')
  const user = [context.prompt ? `The task the agent was given:\n${context.prompt}\n` : '', `Files:\n${files.join('\n')}\n`, `Diff:\n${diff}`].join('\n')
  const reply = await ask(SYSTEM, user, context.signal ?? AbortSignal.timeout(60_000))
  const message = reply.trim().replace(/^```\w*\n?|\n?```$/g, '').replace(/^["']|["']$/g, '').trim()
  if (!message) throw new AppError('UNAVAILABLE', 'The model gave no commit message; write one.')
  return message
}

/**
 * Commits everything in the worktree (`git add -A`, then `git commit`) with the user's message, as
 * the user's git identity. Hooks do not run (a repository is untrusted input; run them from a
 * terminal). Answers the new commit.
 */
export async function commitAll(worktree: string, message: string, env?: NodeJS.ProcessEnv): Promise<{ commit: string }> {
  if (!message.trim()) throw new AppError('INVALID_INPUT', 'A commit needs a message.')
  const options = { cwd: worktree, ...(env && { env }) }
  const added = await git(['add', '-A', '--', '.', ':(exclude).claude/worktrees'], options)
  if (!added.ok) throw new AppError('CONFLICT', `git add: ${added.error}`)
  const staged = await git(['diff', '--cached', '--quiet'], { ...options, okCodes: [1] })
  if (staged.ok && staged.code === 0) throw new AppError('CONFLICT', 'Nothing to commit in this worktree.')
  const committed = await git(['commit', '-q', '--no-verify', '-F', '-'], { ...options, input: message.endsWith('\n') ? message : `${message}\n` })
  if (!committed.ok) throw new AppError('CONFLICT', `git commit: ${committed.error}`)
  return { commit: await headOf(worktree, env) }
}
