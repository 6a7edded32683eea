import { z } from 'zod'
import { AbsPath, Id } from './common'

/**
 * `parallel.*`: parallel sessions on worktrees (issue 27, parts 2–4). One prompt started in N new
 * worktree sessions at once (`start`), shown side by side (`run`), compared file by file (`compare`,
 * `diff`, the user's test command in each worktree: `test`), and merged into the base checkout hunk
 * by hunk (`plan` writes nothing, `apply` writes); per session "Update from base", a commit with a
 * drafted message, and a pull request where `gh` is set up. A session is always named by its run
 * and id, never by a path: the main side knows where each worktree is.
 */

/** A model as `/model` takes it (an id or an alias), or `default`. */
const ModelName = z.string().min(1).max(200).regex(/^[\w.:@/[\]-]+$/)
const RunId = z.string().regex(/^run_[0-9a-f]{8,32}$/, 'a run id looks like run_1a2b3c4d')
const RelativePath = z.string().min(1).max(4096)
const Change = z.enum(['added', 'modified', 'deleted'])

/** Where one session of a run is. */
export const ParallelState = z.enum(['starting', 'running', 'waiting', 'done', 'stopped', 'failed', 'idle'])
export type ParallelState = z.infer<typeof ParallelState>

/** One file a session changed, counted against its fork point. */
export const ChangedFileRow = z.object({ path: z.string(), change: Change, additions: z.number().int(), deletions: z.number().int(), hunks: z.number().int(), whole: z.boolean(), unsupported: z.string().optional() })
export type ChangedFileRow = z.infer<typeof ChangedFileRow>

/** One session of a run, as the side-by-side view shows it. */
export const ParallelSession = z.object({
  sessionId: z.string(),
  /** The worktree's name (`.claude/worktrees/<name>`) and its branch. */
  name: z.string(),
  branch: z.string(),
  /** The worktree's folder (shown, and the project its session opens in; requests never take it). */
  worktree: z.string(),
  model: z.string(),
  state: ParallelState,
  /** Why it stopped or failed. */
  message: z.string().optional(),
  costUsd: z.number(),
  changed: z.array(ChangedFileRow),
  /** Why its changes could not be read (the worktree is gone…). */
  problem: z.string().optional(),
})
export type ParallelSession = z.infer<typeof ParallelSession>

export const ParallelRun = z.object({ runId: z.string(), projectPath: z.string(), prompt: z.string(), createdAt: z.string(), sessions: z.array(ParallelSession) })
export type ParallelRun = z.infer<typeof ParallelRun>

/** A file of a session with both texts (absent: added, deleted, binary or too large). */
export const SessionFileDiff = z.object({ path: z.string(), change: Change, before: z.string().optional(), after: z.string().optional(), whole: z.boolean(), unsupported: z.string().optional() })
export type SessionFileDiff = z.infer<typeof SessionFileDiff>

/** Hunks (indices into the file's diff from its fork point) or the whole file, of one session. */
export const MergePickInput = z.object({ sessionId: Id, path: RelativePath, hunks: z.union([z.array(z.number().int().min(0)).max(10_000), z.literal('all')]) }).strict()
export type MergePickInput = z.infer<typeof MergePickInput>

const ConflictTarget = z.union([z.literal('base'), z.object({ sessionId: z.string(), hunk: z.union([z.number(), z.literal('all')]) })])
export const MergeConflictRow = z.object({ sessionId: z.string(), hunk: z.union([z.number(), z.literal('all')]), with: ConflictTarget, why: z.string() })
export type MergeConflictRow = z.infer<typeof MergeConflictRow>

/** What Apply would do to one file of the base (see worktrees/merge/plan-types.ts). */
export const MergePlanRow = z.object({
  path: z.string(),
  current: z.string().optional(),
  action: z.enum(['write', 'copy', 'delete', 'none']),
  result: z.string().optional(),
  dirty: z.boolean(),
  conflicts: z.array(MergeConflictRow),
  preview: z.array(z.object({ sessionId: z.string(), base: z.string(), ours: z.string(), theirs: z.string(), merged: z.string() })),
  resolved: z.boolean(),
  fingerprint: z.string(),
})
export type MergePlanRow = z.infer<typeof MergePlanRow>

const Refused = z.array(z.object({ sessionId: z.string(), path: z.string(), why: z.string() }))
const Picks = z.array(MergePickInput).max(100_000)
const Resolutions = z.record(RelativePath, z.string().max(16 * 1024 * 1024))

export const TestRunRow = z.object({ sessionId: z.string(), command: z.string(), exitCode: z.number().int().nullable(), output: z.string(), durationMs: z.number(), timedOut: z.boolean() })
export type TestRunRow = z.infer<typeof TestRunRow>

export const UpdatePreviewRow = z.object({
  baseHead: z.string(),
  head: z.string(),
  upToDate: z.boolean(),
  files: z.array(z.object({ path: z.string(), change: Change, before: z.string().optional(), after: z.string().optional() })),
  conflicts: z.array(z.string()),
  dirty: z.boolean(),
})
export type UpdatePreviewRow = z.infer<typeof UpdatePreviewRow>

const Session = { runId: RunId, sessionId: Id }

export const parallelRequests = {
  /** Starts one prompt in N new worktree sessions (1–8), each with its model (`default`: the configured one). */
  'parallel.start': {
    input: z.object({ projectPath: AbsPath, prompt: z.string().trim().min(1).max(1_000_000), models: z.array(ModelName).min(1).max(8) }).strict(),
    output: ParallelRun,
  },
  /** The project's runs, newest first. */
  'parallel.runs': { input: z.object({ projectPath: AbsPath }).strict(), output: z.array(ParallelRun) },
  /** One run with its sessions' state, cost and changed files now. */
  'parallel.run': { input: z.object({ runId: RunId }).strict(), output: ParallelRun },
  /** A session's file with both texts, for the per-hunk diff. */
  'parallel.diff': { input: z.object({ ...Session, path: RelativePath }).strict(), output: SessionFileDiff },
  /** Runs the user's test command in every session's worktree (or those named), as the user's terminal would. */
  'parallel.test': {
    input: z.object({ runId: RunId, command: z.string().trim().min(1).max(10_000), sessionIds: z.array(Id).max(8).optional() }).strict(),
    output: z.array(TestRunRow),
  },
  /** What applying the picks would write in the base; nothing is written. */
  'parallel.plan': { input: z.object({ runId: RunId, picks: Picks, resolutions: Resolutions.optional() }).strict(), output: z.object({ files: z.array(MergePlanRow), refused: Refused }) },
  /** Applies the picks as previewed (fingerprints), with resolutions and the dirty files the user confirmed. */
  'parallel.apply': {
    input: z.object({ runId: RunId, picks: Picks, resolutions: Resolutions.optional(), confirmDirty: z.array(RelativePath).max(100_000).optional(), fingerprints: z.record(RelativePath, z.string().max(128)) }).strict(),
    output: z.object({ written: z.array(z.string()), deleted: z.array(z.string()), heldBack: z.array(MergeConflictRow.extend({ path: z.string() })) }),
  },
  /** What "Update from base" would change in the session's worktree. */
  'parallel.updatePreview': { input: z.object(Session).strict(), output: UpdatePreviewRow },
  /** Takes the base into the worktree (merge or rebase) as previewed. */
  'parallel.update': {
    input: z.object({ ...Session, mode: z.enum(['merge', 'rebase']), baseHead: z.string().regex(/^[0-9a-f]{40,64}$/), head: z.string().regex(/^[0-9a-f]{40,64}$/) }).strict(),
    output: z.object({ head: z.string() }),
  },
  /** A commit message for the worktree's uncommitted changes, drafted by a small model. */
  'parallel.draftCommit': { input: z.object(Session).strict(), output: z.object({ message: z.string() }) },
  /** Commits everything in the worktree with the user's message. */
  'parallel.commit': { input: z.object({ ...Session, message: z.string().trim().min(1).max(100_000) }).strict(), output: z.object({ commit: z.string() }) },
  /** Whether Open PR can work (gh installed and signed in, a remote), and why not. */
  'parallel.prStatus': { input: z.object(Session).strict(), output: z.object({ available: z.boolean(), reason: z.string().optional() }) },
  /** Pushes the session's branch and opens a pull request with `gh`. */
  'parallel.openPr': { input: z.object({ ...Session, title: z.string().trim().min(1).max(300), body: z.string().max(100_000) }).strict(), output: z.object({ url: z.string() }) },
} as const

export const parallelEvents = {
  /** A run's sessions changed (state, cost, files): fetch `parallel.run` again. */
  'parallel.changed': z.object({ runId: z.string(), projectPath: z.string() }),
} as const
