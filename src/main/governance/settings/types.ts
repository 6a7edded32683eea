import type { ParsedRule } from '../rules/parse'
import type { PermissionMode, RuleBehavior, RuleOrigin, SettingsSourceName } from '../types'
import type { HookHandlerConfig } from './schema'

/** Claude Code keys for behaviour besides permissions (read by behaviour-keys.ts). */
export interface BehaviourSettings {
  /** Characters of a command's output the model gets inline (default 30,000; clamped to 4,000–128,000); the rest goes to a file. */
  bashOutputMaxChars?: number
  /** Prompt cache lifetime of the conversation's breakpoints. */
  promptCacheTtl?: '5m' | '1h'
  /**
   * Sous's own key (Claude Code 2.1.328 has none: it always does this): an Agent call that does not
   * say `run_in_background` runs in the background. Default false (Sous waits for the agent).
   */
  agentsInBackground?: boolean
  /**
   * Sous's `crossSessionMessages`: what the session does with a message from another session of
   * this machine (`accept`, `hold` for the user, `refuse`), from the user's, managed or command-line
   * settings. Unset: accept, but hold a message from a session in another permission mode.
   */
  crossSessionMessages?: 'accept' | 'hold' | 'refuse'
  /** The strictest `crossSessionMessages` a project's own settings ask for: a repository may tighten the policy, never loosen it. */
  crossSessionMessagesFloor?: 'accept' | 'hold' | 'refuse'
  /** Sous's `deferBuiltinTools`: rarely used built-in tools wait behind ToolSearch (engine/deferred-tools.ts). */
  deferBuiltinTools?: boolean
}

/** Guidance for auto mode's classifier, from the user's and managed settings only (see auto-mode-keys.ts). */
export interface AutoModeSettings {
  allow: string[]
  softDeny: string[]
  environment: string[]
  /** The classifier's model (`autoMode.model`); `CLAUDE_CODE_AUTO_MODE_MODEL` wins over it. */
  model?: string
}

/** A rule ready for matching: parsed form, where it came from, and the root its `/x` paths are relative to. */
export interface LoadedRule {
  parsed: ParsedRule
  origin: RuleOrigin
  sourceRoot: string
}

/** A hook handler with its event, matcher and the file it came from. */
export interface LoadedHook {
  event: string
  matcher?: string
  handler: HookHandlerConfig
  source: SettingsSourceName
  file?: string
}

/** A problem found while loading one source; errors make the source fail closed. */
export interface SettingsDiagnostic {
  source: SettingsSourceName
  file?: string
  level: 'error' | 'warning'
  message: string
  line?: number
  column?: number
}

/** Every source merged: list keys concatenated, scalars from the highest source that sets them. */
export interface MergedSettings {
  projectRoot: string
  home: string
  rules: Record<RuleBehavior, LoadedRule[]>
  defaultMode?: PermissionMode
  additionalDirectories: string[]
  hooks: LoadedHook[]
  disableAllHooks: boolean
  /** Claude Code's `fileCheckpointingEnabled`: false turns checkpoints off (the highest source that sets it decides). */
  fileCheckpointingEnabled?: boolean
  /** `allowedHttpHookUrls` of every file: the non-loopback URLs `http` hooks may POST to. */
  allowedHttpHookUrls: string[]
  disableBypassPermissions: boolean
  /** `disableAutoMode: "disable"` in any file (top level or under `permissions`): `auto` is refused, sessions stay manual. */
  disableAutoMode: boolean
  /** `autoMode`: the classifier's guidance and model, from user and managed settings. */
  autoMode: AutoModeSettings
  /** Claude Code keys for behaviour outside permissions (`bashOutputMaxChars`, `promptCacheTtl`; `autoCompactWindow` is its own key). */
  behaviour: BehaviourSettings
  sandbox: {
    enabled?: boolean
    allowedDomains: string[]
    deniedDomains: string[]
    denyRead: string[]
    /** Paths re-opened for reading under the sandbox's read denies (credentials, the Sous home's project data). */
    allowRead: string[]
    allowWrite: string[]
    denyWrite: string[]
  }
  /**
   * `autoCompactWindow` (Claude Code's key): compaction's thresholds are derived from this many
   * tokens when it is smaller than the model's window. Only a positive whole number is taken; any
   * other value is refused with its file and line, and the model's window applies.
   */
  autoCompactWindow?: number
  /** Files that could not be read: while any is listed, no call is allowed without asking. */
  broken: Array<{ file: string; message: string }>
  /** Files governance itself must protect (all sources' paths, the managed file, the trust file). */
  settingsFiles: string[]
  /**
   * Project files the obeyed hooks run (`hookScriptPaths`): an edit asks in every mode, and the
   * sandbox keeps them read-only, as it does the settings files.
   */
  hookScripts: string[]
  /**
   * Whether the project's own files were obeyed: `assumed` (headless), `trusted` (by the user, as
   * they are now) or `untrusted`, with what was left out for that reason.
   */
  trust: { state: 'assumed' | 'trusted' | 'untrusted'; ignored: string[] }
}

/** What {@link loadSettings} returns. */
export interface LoadedSettings {
  settings: MergedSettings
  diagnostics: SettingsDiagnostic[]
}

export type { RuleBehavior }
