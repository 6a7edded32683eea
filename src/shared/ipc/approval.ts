import { z } from 'zod'
import { Id } from './common'

/** What an approval card shows: the diff of an edit, the parsed command, a path, a URL or a plan. */
export const ApprovalPreview = z.discriminatedUnion('kind', [
  /** `realPath`: where the file really is when a symlink on the way leads elsewhere. */
  z.object({ kind: z.literal('diff'), filePath: z.string(), before: z.string(), after: z.string(), realPath: z.string().optional() }),
  z.object({
    kind: z.literal('command'),
    command: z.string(),
    description: z.string().optional(),
    /** The simple commands it runs, in order. */
    commands: z.array(z.string()).optional(),
    subcommands: z.array(z.string()).optional(),
    paths: z.array(z.object({ path: z.string(), write: z.boolean(), inside: z.boolean(), realPath: z.string().optional() })).optional(),
    writesOutside: z.boolean().optional(),
    /** Whether it would run inside the sandbox; `sandboxNote` says why not. */
    sandboxed: z.boolean().optional(),
    sandboxNote: z.string().optional(),
    /** Why it cannot be approved by a rule (substitution, eval, syntax error…). */
    problems: z.array(z.string()).optional(),
  }),
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('path'), path: z.string(), operation: z.enum(['read', 'edit']), realPath: z.string().optional() }),
  z.object({ kind: z.literal('url'), url: z.string(), domain: z.string() }),
  /** ExitPlanMode: the plan (Markdown) the user approves, edits, or sends back with feedback. */
  z.object({ kind: z.literal('plan'), plan: z.string(), filePath: z.string().optional() }),
  /** AskUserQuestion: 1–4 questions with 2–4 options each (Claude Code's shape), answered with `answers`. */
  z.object({
    kind: z.literal('questions'),
    questions: z.array(
      z.object({
        question: z.string(),
        header: z.string(),
        options: z.array(z.object({ label: z.string(), description: z.string(), preview: z.string().optional() })),
        multiSelect: z.boolean(),
      }),
    ),
  }),
])
export type ApprovalPreview = z.infer<typeof ApprovalPreview>

/** A tool call waiting for the user. */
export const ApprovalRequested = z.object({
  id: Id,
  sessionId: z.string(),
  toolUseId: z.string(),
  toolName: z.string(),
  input: z.unknown(),
  preview: ApprovalPreview.optional(),
  /** Why it asks: what decided (`kind`: rule, mode, sandbox…) and one line for people. */
  explanation: z.object({ kind: z.string(), text: z.string() }),
  /** Editable rules offered for "allow for this session" / "always allow"; empty when no rule can help. */
  suggestions: z.array(z.string()),
  /** The subagent asking (its id, type and description); absent for the session's main agent. */
  agent: z.object({ id: z.string(), type: z.string(), description: z.string() }).optional(),
})
export type ApprovalRequested = z.infer<typeof ApprovalRequested>

/**
 * How an approval ended, as `approval.resolved` tells it: the person's answer, or `aborted`. Only
 * the interactive queue's approvals are shown (the main side's `QueueOutcome`, in
 * `governance/approvals/queue.ts`); where nobody can answer, the unattended answerer denies in the
 * main process and nothing reaches the UI.
 */
export const ApprovalResolution = z.enum(['allowed_once', 'allowed_session', 'allowed_always', 'rejected', 'aborted'])
export type ApprovalResolution = z.infer<typeof ApprovalResolution>

/** `approval.*`: tool calls waiting for the user, and the answers. */
export const approvalRequests = {
  /**
   * Answers a pending approval. `rules` (or one `rule`) replace the suggested rules for "allow for
   * this session" / "always allow" (each must parse); `destination` picks the settings file "always" writes
   * (`local`: `.claude/settings.local.json`, `user`: `$SOUS_HOME/settings.json`); `message`
   * goes to the agent with a rejection. A plan (preview kind `plan`) is approved with `allow_once`
   * — `plan` is the text as the user edited it, `planMode` the mode that follows ("approve and
   * auto-accept edits": `acceptEdits`; "approve and ask for each edit": `default`; absent: the mode
   * before plan mode) — or sent back with `reject` and the feedback in `message` ("keep planning").
   */
  'approval.reply': {
    input: z
      .object({
        id: Id,
        decision: z.enum(['allow_once', 'allow_session', 'allow_always', 'reject']),
        rule: z.string().min(1).max(2000).optional(),
        rules: z.array(z.string().min(1).max(2000)).min(1).max(5).optional(),
        destination: z.enum(['local', 'user']).optional(),
        message: z.string().max(10_000).optional(),
        /** Edit/Write approved in the diff view: the exact text to write (with `allow_once`). */
        finalContent: z.string().max(50_000_000).optional(),
        /** The user's choice per hunk of the proposal, in order (with `finalContent`). */
        hunks: z.array(z.enum(['accepted', 'rejected'])).max(100_000).optional(),
        /** A plan approved as the user edited it (with `allow_once`). */
        plan: z.string().max(1_000_000).optional(),
        /** The mode that follows an approved plan (with `allow_once`). */
        planMode: z.enum(['acceptEdits', 'default']).optional(),
        /**
         * AskUserQuestion's answers (with `allow_once`): question text → the chosen label, labels
         * joined by ", " for a multi-select, or the user's own words ("Other").
         */
        answers: z.record(z.string().max(10_000), z.string().max(10_000)).optional(),
      })
      .strict(),
    output: z.void(),
  },
  /**
   * Checks the rules about to be saved (`rule`, or `rules`: one per subcommand) against a pending
   * approval: whether they parse, and which of the request's commands they would allow, matched as
   * the gate matches them (`covers`: all of them, so the call would pass).
   */
  'approval.checkRule': {
    input: z.object({ id: Id, rule: z.string().max(2000), rules: z.array(z.string().max(2000)).max(5).optional() }).strict(),
    output: z.object({ ok: z.boolean(), error: z.string().optional(), matches: z.array(z.string()), misses: z.array(z.string()), covers: z.boolean() }),
  },
  /** Approvals still waiting, oldest first (all sessions, or one). */
  'approval.list': { input: z.object({ sessionId: Id.optional() }).strict(), output: z.array(ApprovalRequested) },
} as const

export const approvalEvents = {
  /** A tool call needs the user's approval. */
  'approval.requested': ApprovalRequested,
  /** An approval was answered, cancelled, or refused for lack of a UI. */
  'approval.resolved': z.object({ id: Id, sessionId: z.string(), outcome: ApprovalResolution, rules: z.array(z.string()).optional(), warning: z.string().optional() }),
} as const
