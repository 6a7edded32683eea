import { z } from 'zod'
import { AgentEvent } from '../protocol/agent-event'

/**
 * The only truth between the main process and the renderer. Every request channel has an input
 * and an output schema; every event channel has a payload schema. Adding a channel is one entry
 * here plus one handler in `src/main/host/handlers/` (the compiler names a missing handler).
 * Channel names are `domain.verb`.
 */

const Id = z.string().min(1).max(200)
const AbsPath = z.string().min(1).max(4096)
const Empty = z.object({}).strict()

/** Permission modes, as in Claude Code's settings (`defaultMode`). */
export const PermissionModeName = z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'])
export type PermissionModeName = z.infer<typeof PermissionModeName>

/** A project the user opened. */
export const Project = z.object({ path: z.string(), name: z.string(), openedAt: z.string() })
export type Project = z.infer<typeof Project>

/** One stored conversation, as the session list shows it. */
export const SessionSummary = z.object({
  sessionId: z.string(),
  projectPath: z.string(),
  title: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number(),
})
export type SessionSummary = z.infer<typeof SessionSummary>

/** One entry of a project folder listing (`files.list`). */
export const FileEntry = z.object({
  name: z.string(),
  /** Relative to the project root, `/`-separated. */
  path: z.string(),
  kind: z.enum(['file', 'dir']),
})
export type FileEntry = z.infer<typeof FileEntry>

/** A session that matched a text search, with the line that matched. */
export const SessionMatch = z.object({ summary: SessionSummary, snippet: z.string() })
export type SessionMatch = z.infer<typeof SessionMatch>

/** One file the agent changed in a session, with its combined unified diff. */
export const FileChange = z.object({ path: z.string(), created: z.boolean(), patch: z.string() })
export type FileChange = z.infer<typeof FileChange>

/** Sous's own preferences (stored under the "sous" key of `$SOUS_HOME/settings.json`). */
/** Model requests a desktop turn makes before it asks whether to go on (headless has no limit). */
export const DEFAULT_TURN_GUARD = 200

export const Preferences = z.object({
  baseUrl: z.string().max(2000).optional(),
  model: z.string().max(200).optional(),
  fallbackModel: z.string().max(200).optional(),
  permissionMode: z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk']).optional(),
  /** Model requests a desktop turn makes before it asks whether to go on (default {@link DEFAULT_TURN_GUARD}). */
  turnGuard: z.number().int().min(10).max(100_000).optional(),
  theme: z.enum(['light', 'dark', 'system']),
  fontSize: z.number().int().min(9).max(32),
})
export type Preferences = z.infer<typeof Preferences>

/** A project settings file (`.claude/settings.json` or `.claude/settings.local.json`). */
export const ProjectSettingsName = z.enum(['settings.json', 'settings.local.json'])
export type ProjectSettingsName = z.infer<typeof ProjectSettingsName>

/** Where and why a settings file is invalid (1-based line and column). */
export const SettingsProblem = z.object({ message: z.string(), line: z.number(), column: z.number() })
export type SettingsProblem = z.infer<typeof SettingsProblem>
/** What an approval card shows: the diff of an edit, the parsed command, a path or a URL. */
export const ApprovalPreview = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('diff'), filePath: z.string(), before: z.string(), after: z.string() }),
  z.object({
    kind: z.literal('command'),
    command: z.string(),
    description: z.string().optional(),
    /** The simple commands it runs, in order. */
    commands: z.array(z.string()).optional(),
    subcommands: z.array(z.string()).optional(),
    paths: z.array(z.object({ path: z.string(), write: z.boolean(), inside: z.boolean() })).optional(),
    writesOutside: z.boolean().optional(),
    /** Whether it would run inside the sandbox; `sandboxNote` says why not. */
    sandboxed: z.boolean().optional(),
    sandboxNote: z.string().optional(),
    /** Why it cannot be approved by a rule (substitution, eval, syntax error…). */
    problems: z.array(z.string()).optional(),
  }),
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('path'), path: z.string(), operation: z.enum(['read', 'edit']) }),
  z.object({ kind: z.literal('url'), url: z.string(), domain: z.string() }),
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
})
export type ApprovalRequested = z.infer<typeof ApprovalRequested>

/** How an approval ended. */
export const ApprovalOutcome = z.enum(['allowed_once', 'allowed_session', 'allowed_always', 'rejected', 'aborted', 'headless'])
export type ApprovalOutcome = z.infer<typeof ApprovalOutcome>

export const requests = {
  /** Facts about the running app, for the status bar and the about box. */
  'app.info': {
    input: Empty,
    output: z.object({ version: z.string(), platform: z.string(), transport: z.enum(['electron', 'browser']) }),
  },

  /** Opens a folder as a project and remembers it among the recent ones. */
  'project.open': { input: z.object({ path: AbsPath }).strict(), output: Project },
  /** Recently opened projects, newest first. */
  'project.recent': { input: Empty, output: z.array(Project) },
  /** Asks the OS for a folder (desktop only); `null` when the user cancels. */
  'project.pick': { input: Empty, output: Project.nullable() },

  /** Starts a user terminal on a real PTY in a project folder. */
  'pty.create': {
    input: z
      .object({ cwd: AbsPath, cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) })
      .strict(),
    output: z.object({ id: Id }),
  },
  /** Types into a terminal. */
  'pty.write': { input: z.object({ id: Id, data: z.string().max(1_000_000) }).strict(), output: z.void() },
  'pty.resize': {
    input: z
      .object({ id: Id, cols: z.number().int().min(1).max(1000), rows: z.number().int().min(1).max(1000) })
      .strict(),
    output: z.void(),
  },
  /** Acknowledges rendered output so a paused PTY may resume (flow control). */
  'pty.ack': { input: z.object({ id: Id, chars: z.number().int().min(0) }).strict(), output: z.void() },
  'pty.kill': { input: z.object({ id: Id }).strict(), output: z.void() },

  /** Starts a new conversation in a project. */
  'session.create': { input: z.object({ projectPath: AbsPath }).strict(), output: z.object({ sessionId: Id }) },
  /** Sends a prompt; the reply arrives as `agent.event`s. Resolves when the turn is accepted. */
  'session.prompt': {
    input: z.object({ sessionId: Id, text: z.string().min(1).max(1_000_000) }).strict(),
    output: z.void(),
  },
  /** Stops the running turn. */
  'session.abort': { input: z.object({ sessionId: Id }).strict(), output: z.void() },
  /** Answers a running turn that reached its request guard (`turn_limit`): go on, or stop it. */
  'session.continueTurn': { input: z.object({ sessionId: Id, proceed: z.boolean() }).strict(), output: z.void() },
  /** Switches a session's permission mode (Shift+Tab in the UI); applies from the next tool call. */
  'session.setMode': { input: z.object({ sessionId: Id, mode: PermissionModeName }).strict(), output: z.void() },
  /** Stored sessions, newest first: of one project, or of all when `projectPath` is omitted. */
  'session.list': { input: z.object({ projectPath: AbsPath.optional() }).strict(), output: z.array(SessionSummary) },
  /** Brings a stored session back so it can take prompts (a transcript cut mid-turn is repaired). */
  'session.resume': { input: z.object({ sessionId: Id }).strict(), output: SessionSummary },
  /** Resumes the most recent session of a project. */
  'session.continue': { input: z.object({ projectPath: AbsPath }).strict(), output: SessionSummary },
  /** A stored session's events (no deltas), to redraw it. */
  'session.history': {
    input: z.object({ sessionId: Id }).strict(),
    output: z.object({ summary: SessionSummary, events: z.array(AgentEvent) }),
  },
  'session.rename': { input: z.object({ sessionId: Id, title: z.string().trim().min(1).max(200) }).strict(), output: z.void() },
  /** Stops the session if it runs and deletes its transcript. */
  'session.delete': { input: z.object({ sessionId: Id }).strict(), output: z.void() },

  /**
   * Answers a pending approval. `rule` replaces the suggested rules for "allow for this session" /
   * "always allow" (it must parse); `destination` picks the settings file "always" writes
   * (`local`: `.claude/settings.local.json`, `user`: `$SOUS_HOME/settings.json`); `message`
   * goes to the agent with a rejection.
   */
  'approval.reply': {
    input: z
      .object({
        id: Id,
        decision: z.enum(['allow_once', 'allow_session', 'allow_always', 'reject']),
        rule: z.string().min(1).max(2000).optional(),
        destination: z.enum(['local', 'user']).optional(),
        message: z.string().max(10_000).optional(),
        /** Edit/Write approved in the diff view: the exact text to write (with `allow_once`). */
        finalContent: z.string().max(50_000_000).optional(),
        /** The user's choice per hunk of the proposal, in order (with `finalContent`). */
        hunks: z.array(z.enum(['accepted', 'rejected'])).max(100_000).optional(),
      })
      .strict(),
    output: z.void(),
  },
  /**
   * Checks an edited rule against a pending approval before it is saved: whether it parses, and
   * which of the request's commands it would allow (`covers`: all of them, so the call would pass).
   */
  'approval.checkRule': {
    input: z.object({ id: Id, rule: z.string().max(2000) }).strict(),
    output: z.object({ ok: z.boolean(), error: z.string().optional(), matches: z.array(z.string()), misses: z.array(z.string()), covers: z.boolean() }),
  },
  /** Approvals still waiting, oldest first (all sessions, or one). */
  'approval.list': { input: z.object({ sessionId: Id.optional() }).strict(), output: z.array(ApprovalRequested) },

  /** Stores the API key with the OS keychain. It is never readable back through the contract. */
  'settings.setApiKey': { input: z.object({ key: z.string().min(1).max(500) }).strict(), output: z.void() },
  /** Whether a key is present, and how it is protected. */
  'settings.apiKeyStatus': {
    input: Empty,
    output: z.object({
      present: z.boolean(),
      /** `memory`: set through the browser host; kept for this run only, never written to disk. */
      source: z.enum(['keychain', 'environment', 'memory', 'none']),
      warning: z.string().optional(),
    }),
  },

  /** Finds stored sessions whose prompts, replies or title contain `query` (case-insensitive). */
  'session.search': {
    input: z.object({ query: z.string().trim().min(1).max(500), projectPath: AbsPath.optional() }).strict(),
    output: z.array(SessionMatch),
  },
  /** A stored session as Markdown, for saving. */
  'session.export': {
    input: z.object({ sessionId: Id }).strict(),
    output: z.object({ fileName: z.string(), markdown: z.string() }),
  },
  /** Files the agent changed in a session, each with its combined diff (first before → last after). */
  'session.changes': { input: z.object({ sessionId: Id }).strict(), output: z.array(FileChange) },

  /** One folder of a project, `.gitignore` respected, folders first. */
  'files.list': {
    input: z.object({ root: AbsPath, dir: z.string().max(4096).default('') }).strict(),
    output: z.array(FileEntry),
  },
  /**
   * Files and folders of a project whose relative path matches `query` (for `@` completion in the
   * composer), best first; `.gitignore` respected, folders end with `/`. A query reaching outside
   * the project (absolute, `..`) is refused.
   */
  'files.search': {
    input: z
      .object({ projectPath: AbsPath, query: z.string().max(1024), limit: z.number().int().min(1).max(200).default(20) })
      .strict(),
    output: z.array(z.string()),
  },
  /** A project file's text, for the read-only viewer. */
  'files.read': {
    input: z.object({ root: AbsPath, path: z.string().min(1).max(4096) }).strict(),
    output: z.object({ text: z.string(), binary: z.boolean(), truncated: z.boolean() }),
  },

  /** Sous's preferences (never the API key). */
  'settings.get': { input: Empty, output: Preferences },
  /** Changes some preferences; keys of other tools in the same file are kept. */
  'settings.update': { input: Preferences.partial().strict(), output: Preferences },
  /** The project's `.claude/settings*.json` files as text (empty when missing). */
  'projectSettings.read': {
    input: z.object({ projectPath: AbsPath }).strict(),
    output: z.array(
      z.object({
        name: ProjectSettingsName,
        path: z.string(),
        exists: z.boolean(),
        text: z.string(),
        /** Things that are valid but will not do what they say (a hook event Sous does not know or fire). */
        warnings: z.array(SettingsProblem).optional(),
      }),
    ),
  },
  /** Validates and saves one project settings file; an invalid text is not saved and the problem says where. */
  'projectSettings.write': {
    input: z.object({ projectPath: AbsPath, name: ProjectSettingsName, text: z.string().max(1_000_000) }).strict(),
    output: z.object({ saved: z.boolean(), problem: SettingsProblem.optional(), warnings: z.array(SettingsProblem).optional() }),
  },
} as const

export const events = {
  /** Terminal output, batched. */
  'pty.data': z.object({ id: Id, data: z.string() }),
  /** A terminal's process ended. */
  'pty.exit': z.object({ id: Id, exitCode: z.number(), signal: z.number().optional() }),
  /** Everything an agent does. */
  'agent.event': AgentEvent,
  /** The Bash tool started a command on a PTY; its output follows as `pty.data` with this `ptyId`. */
  'agent.terminal': z.object({ sessionId: z.string(), ptyId: Id, command: z.string() }),
  /** A tool call needs the user's approval. */
  'approval.requested': ApprovalRequested,
  /** An approval was answered, cancelled, or refused for lack of a UI. */
  'approval.resolved': z.object({ id: Id, sessionId: z.string(), outcome: ApprovalOutcome, rules: z.array(z.string()).optional(), warning: z.string().optional() }),
  /** The OS asked us to open a folder (dropped on the app icon, second instance, …). */
  'project.openRequested': z.object({ path: z.string() }),
} as const

export type Requests = typeof requests
export type RequestChannel = keyof Requests
export type EventChannel = keyof typeof events
export type RequestInput<C extends RequestChannel> = z.input<Requests[C]['input']>
export type RequestParsed<C extends RequestChannel> = z.output<Requests[C]['input']>
export type RequestOutput<C extends RequestChannel> = z.output<Requests[C]['output']>
export type EventPayload<C extends EventChannel> = z.output<(typeof events)[C]>

/** Type guard for a channel name arriving from outside. */
export function isRequestChannel(name: unknown): name is RequestChannel {
  return typeof name === 'string' && Object.hasOwn(requests, name)
}
