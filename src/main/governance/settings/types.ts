import type { ParsedRule } from '../rules/parse'
import type { PermissionMode, RuleBehavior, RuleOrigin, SettingsSourceName } from '../types'
import type { HookHandlerConfig } from './schema'

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
  disableBypassPermissions: boolean
  sandbox: {
    enabled?: boolean
    allowedDomains: string[]
    deniedDomains: string[]
    denyRead: string[]
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
