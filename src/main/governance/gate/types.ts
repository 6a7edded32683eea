import type { BashSandboxSource } from '../../tools/bash-sandbox'
import type { AnyTool, ToolContext } from '../../tools/types'
import type { DenialLog, DenialReason } from '../approvals/denials'
import type { AgentLabel, ApprovalAsker } from '../approvals/queue'
import type { HookRunner } from '../hooks/runner'
import type { LoadSettingsOptions } from '../settings/load'
import type { LoadedRule, MergedSettings, SettingsDiagnostic } from '../settings/types'
import type { PermissionDecision, PermissionMode } from '../types'
import type { SessionHooks } from './gate-hooks'
import type { ClassifierAsk } from '../auto/classifier'
import type { AutoAskPatterns } from '../auto/ask-patterns'
import type { HookVerdict } from '../decide/context'
import type { HookAggregate } from '../hooks/types'
import type { AutoDecision } from '../auto/decision-log'
import type { GateNotice } from './gate-settings'

/** What the engine gets back for one call (its own type, restated so governance does not import the engine). */
export type GateDecision =
  | { behavior: 'allow'; updatedInput?: unknown; runAs?: string; userNote?: string }
  | { behavior: 'deny'; message: string; stopTurn?: string; rejectedByUser?: true }


/** Options of {@link createPermissionGate}. */
export interface PermissionGateOptions {
  projectRoot: string
  /** The Bash tool's current directory moves; pass a function to follow it. */
  cwd: string | (() => string)
  sousHome: string
  mode: PermissionMode
  /** `--allowedTools`, `--disallowedTools`… (the `cli` settings source). */
  cliRules?: LoadSettingsOptions['cli']
  /** Whether the project's own settings need the user's trust (default `check`; see LoadSettingsOptions). */
  projectTrust?: LoadSettingsOptions['projectTrust']
  /** Managed policy file and home directory overrides (tests). */
  managedPath?: string
  home?: string
  /**
   * Where asks go: the session's answerer (its queue, or the unattended answerer: then every ask
   * becomes a denial in `denials`), or a subagent's view of it (fresh grants, the agent named).
   */
  approvals: ApprovalAsker
  /** The subagent this gate serves (absent: the session's main agent); its asks name it. */
  agent?: AgentLabel
  /** Its hook list is replaced whenever the settings are re-read. */
  hooks: HookRunner
  /** The sandbox as probed at start-up (or how to start it); absent when none is configured. */
  sandbox?: BashSandboxSource
  sessionId: string
  transcriptPath?: string
  /** The session's denial log: every call this gate refuses is recorded there. */
  denials: DenialLog
  /** Configuration problems (once each), hook failures and hook system messages. */
  onNotice?(notice: GateNotice): void
  /** Session capabilities previews may need (file-state cache, Bash shell state). */
  toolContext?(): Partial<ToolContext>
  /**
   * The sandbox turned out unavailable for a Bash call: said once per session (and once more if
   * a mode switch changes what that means), so the user sees why commands ask or run unconfined.
   */
  onSandboxUnavailable?(status: SandboxUnavailable): void
  /** Auto mode's classifier (absent: `auto` asks as manual does, and says so once). */
  autoMode?: AutoModeOptions
  /** Every decision auto mode's classifier took, as it is taken (the tool card's reason). */
  onAutoDecision?(decision: AutoDecision, origin?: AutoOrigin): void
  /** A subagent's gate: its session's auto mode (classifier, log, patterns, prompts), and the agent it speaks for. */
  autoModeShared?: { auto: AutoMode; origin: AutoOrigin }
}

/** What a gate needs to run auto mode's classifier (absent: `auto` asks as manual, and says so). */
export interface AutoModeOptions {
  /** The side request (the session's model service). */
  ask: ClassifierAsk
  /** The model when neither `CLAUDE_CODE_AUTO_MODE_MODEL` nor `autoMode.model` names one: the session's small, fast model. */
  defaultModel: string
  /** `CLAUDE_CODE_AUTO_MODE_MODEL`, which wins over the settings (as in Claude Code). */
  envModel?: string
  /** Bound on one classifier request (default `AUTO_CLASSIFIER_TIMEOUT_MS`). */
  timeoutMs?: number
  /** Where the project's "ask me next time" patterns are kept (`auto-mode.json` in the project's data folder). */
  patternsFile: string
}

/** Why Bash runs without the OS sandbox, and what follows from it. */
export interface SandboxUnavailable {
  reason: string
  /** bypassPermissions: commands run unconfined. Otherwise commands that change things ask. */
  unconfined: boolean
}

/** The permission gate of one session: {@link canUseTool} plus the hooks around calls and turns. */
export interface PermissionGate extends SessionHooks {
  /**
   * May this call run? PreToolUse hooks → bash analysis → rules and mode → (ask) approval.
   * Contract: never throws; every path resolves to allow (possibly with a changed input) or deny
   * with a message for the model.
   */
  canUseTool(tool: AnyTool, input: unknown, toolUseId: string, options?: { signal?: AbortSignal }): Promise<GateDecision>
  /**
   * The rules' and mode's verdict on a call, asking no one and running no hook: for work Sous does
   * on the user's behalf that must never prompt (a command's injected `!` lines, `@` includes),
   * where anything but `allow` means "do not do it". Never throws.
   */
  check(tool: AnyTool, input: unknown): Promise<PermissionDecision>
  /** Rejects every approval still pending (the user stopped the turn). */
  abortPending(): void
  setMode(mode: PermissionMode): void
  readonly mode: PermissionMode
  /** The merged settings as they are now (re-read when a file changed). */
  settingsNow(): MergedSettings
  /** The current settings without telling their problems yet: they are told at the next {@link settingsNow} (a look before the session is listened to). */
  settingsPeek(): MergedSettings
  /** Re-reads the settings files now; returns this load's diagnostics. */
  reloadSettings(): SettingsDiagnostic[]
  /** Whether checkpoints are on (`fileCheckpointingEnabled` in the current settings; default on). */
  fileCheckpointingEnabled(): boolean
  /** True when the current rules keep this file from being read (Read deny or ask rules): searches leave it out. */
  isReadDenied(absolutePath: string): boolean
  /** The session's auto mode, which its subagents' gates share. */
  readonly autoMode: AutoMode
  /** Auto mode's decisions in this session, oldest first (the decision log). */
  autoDecisions(): AutoDecision[]
  /** "Ask me next time" for one logged decision; an error message, or undefined once it is in force. */
  askNextTime(decisionId: string, scope: 'session' | 'project'): string | undefined
}

/** One tool call on its way through the stages. */
export interface GateCall {
  tool: AnyTool
  /** The input as it stands: a PreToolUse hook may have replaced the model's. */
  input: unknown
  /** A hook replaced the input, so an allow must carry it to the engine. */
  replaced: boolean
  toolUseId: string
  cwd: string
  mode: PermissionMode
  settings: MergedSettings
  signal?: AbortSignal
  /** PreToolUse hooks' combined verdict, which decide() weighs. */
  hookVerdict?: HookVerdict
  /** The ask that {@link rulesAndMode} left for the later stages. */
  ask?: Extract<PermissionDecision, { behavior: 'ask' }>
  /** Auto mode's "ask me next time" patterns (ask rules in auto mode only). */
  autoAsk?: LoadedRule[]
}

/** What the stages share of the session's gate. */
export interface GateSession {
  options: PermissionGateOptions
  home: string
  /** Records a denial in the session's denial log (for `sous -p`) and answers with it. */
  refuse(call: GateCall, reason: DenialReason, message: string): GateDecision
  /** Hook failures and system messages, as notices. */
  hookNotices(aggregate: HookAggregate): void
  notice(notice: GateNotice): void
  /** Aborted when the user stops the turn: pending approvals end with it. */
  turnSignal(): AbortSignal
  /** Says (once per session and meaning) that Bash runs without the OS sandbox. */
  sandboxUnavailable(reason: string, unconfined: boolean): void
}

/** Auto mode's part of one session's gate: the classifier stage, its decision log and "ask me next time". */
export interface AutoMode {
  /** Remembers a prompt the user sent: the classifier judges calls against the latest few. */
  notePrompt(prompt: string): void
  /**
   * The stage after the rules: a classifiable ask in auto mode goes to the classifier; allow runs
   * the call, ask goes on to the user (or the unattended refusal) with the classifier's reason.
   */
  judge(gate: GateSession, call: GateCall, origin?: AutoOrigin): Promise<GateDecision | undefined>
  decisions(): AutoDecision[]
  /** "Ask me next time" for a logged decision: its pattern asks in auto mode from now on. An error message, or undefined. */
  askNextTime(decisionId: string, scope: 'session' | 'project'): string | undefined
  /** The patterns in force, as ask rules decide() adds in auto mode. */
  patterns: AutoAskPatterns
}

/** Which agent made a judged call: a subagent's gate shares its session's auto mode and says so. */
export interface AutoOrigin {
  agentId: string
  parentToolUseId?: string
}

