import type { Tool, ToolPermissionResult } from '../../tools/types'
import type { LoadedRule, MergedSettings } from '../settings/types'
import type { PermissionMode, RuleBehavior } from '../types'
import type { LinkReach } from './link-reach'
import type { SessionGrants } from './session'
import type { Subject } from './subject'

/** A PreToolUse hook's verdict, already combined across hooks (deny > ask > allow). */
export interface HookVerdict {
  decision: 'allow' | 'deny' | 'ask'
  reason?: string
  source?: string
}

/** Everything {@link decide} needs. */
export interface DecideInput {
  tool: Pick<Tool, 'name' | 'isReadOnly'> & Partial<Pick<Tool, 'isBookkeeping' | 'checkPermissions'>>
  input: unknown
  mode: PermissionMode
  settings: MergedSettings
  cwd: string
  projectRoot: string
  sessionGrants?: SessionGrants
  hook?: HookVerdict
  /** Folders beyond the project this session reads without asking (its own saved tool results). */
  readableRoots?: string[]
  /**
   * Auto mode's "ask me next time" patterns (session and project): in `auto` they are ask rules, so
   * a call they cover asks the user and never reaches the classifier. Ignored in every other mode.
   */
  autoAsk?: LoadedRule[]
}

/** Shared state of one decision. */
export interface DecideContext extends DecideInput {
  record: Record<string, unknown>
  subject: Subject
  roots: string[]
  home: string
  rules: Record<RuleBehavior, LoadedRule[]>
  /** Why the command's read-only git must be asked about where it runs (see `gitRepositoryConcern`). */
  gitConcern?: string
  /** Where the symlinks below the folders a link-following reader reads lead (see `linkReach`). */
  links?: LinkReach
  /** The tool's own permission check (`passthrough` when it has none). */
  own: ToolPermissionResult
}
