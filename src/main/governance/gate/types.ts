import type { BashSandboxSource } from '../../tools/bash-sandbox'
import type { AnyTool, ToolContext } from '../../tools/types'
import type { DenialLog } from '../approvals/denials'
import type { AgentLabel, ApprovalAsker } from '../approvals/queue'
import type { HookRunner } from '../hooks/runner'
import type { LoadSettingsOptions } from '../settings/load'
import type { MergedSettings, SettingsDiagnostic } from '../settings/types'
import type { PermissionDecision, PermissionMode } from '../types'
import type { SessionHooks } from './gate-hooks'
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
  /** Re-reads the settings files now; returns this load's diagnostics. */
  reloadSettings(): SettingsDiagnostic[]
  /** Whether checkpoints are on (`fileCheckpointingEnabled` in the current settings; default on). */
  fileCheckpointingEnabled(): boolean
  /** True when the current rules keep this file from being read (Read deny or ask rules): searches leave it out. */
  isReadDenied(absolutePath: string): boolean
}
