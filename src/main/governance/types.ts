/**
 * Shared vocabulary of the governance layer: where a rule comes from, what a decision is, and why
 * it was taken. Every decision carries an {@link Explanation} so the UI and the transcript can say
 * which rule, file, mode or protected path decided.
 */

import { PERMISSION_MODE_NAMES, type PermissionModeId } from '../../shared/permission-modes'

/**
 * Claude Code's permission modes, by Sous's internal names (`manual` is read as `default`, see
 * shared/permission-modes). `auto` reads the rules as `default` does, and lets a classifier judge
 * the asks no rule decides (governance/auto).
 */
export type PermissionMode = PermissionModeId

export const PERMISSION_MODES: readonly PermissionMode[] = PERMISSION_MODE_NAMES

/**
 * Where settings (and so rules) come from, highest precedence first — Claude Code's list:
 * `managed` (policy), `cli` (`--allowedTools`/`--disallowedTools`), `flag` (a `--settings` file or
 * JSON text), `local`, `project`, `user`, and the two that live in memory: `session` ("allow for
 * this session" grants) and `command` (a slash command's or skill's `allowed-tools`, for as long as
 * it runs).
 */
export type SettingsSourceName = 'managed' | 'cli' | 'flag' | 'local' | 'project' | 'user' | 'session' | 'command'

/** Rule lists, as in Claude Code's `permissions` block. */
export type RuleBehavior = 'allow' | 'deny' | 'ask'

/** A rule string as written plus where it was found. */
export interface RuleOrigin {
  /** The rule text as written, e.g. `Bash(npm run test:*)`. */
  text: string
  behavior: RuleBehavior
  source: SettingsSourceName
  /** The settings file that holds it (absent for CLI flags and session grants; a command's own file for `command`). */
  file?: string
}

/** How each source is named to people ("why was I asked", `sous -p`'s denials). */
const SOURCE_LABELS: Record<SettingsSourceName, string> = {
  managed: 'managed policy settings',
  cli: 'the command line',
  flag: '--settings',
  local: 'local project settings',
  project: 'project settings',
  user: 'user settings',
  session: 'this session\'s grants',
  command: 'a command\'s allowed-tools',
}

/**
 * Where a rule comes from, for people: the source's name and, when there is one, its file
 * (`user settings (/home/me/.sous/settings.json)`). A command-line rule names its flag.
 */
export function describeOrigin(origin: RuleOrigin): string {
  if (origin.source === 'cli') return origin.behavior === 'allow' ? '--allowedTools' : origin.behavior === 'deny' ? '--disallowedTools' : SOURCE_LABELS.cli
  // The only in-memory ask rules are auto mode's "ask me next time" patterns (the session's, or the project's file).
  if (origin.source === 'session' && origin.behavior === 'ask') return `auto mode's "ask me next time" patterns${origin.file ? ` (${origin.file})` : ''}`
  return origin.file ? `${SOURCE_LABELS[origin.source]} (${origin.file})` : SOURCE_LABELS[origin.source]
}

/** Why a decision was taken. `kind` says what decided; the rest says which one. */
export type Explanation =
  | { kind: 'rule'; rule: RuleOrigin; detail?: string }
  | { kind: 'mode'; mode: PermissionMode; detail: string }
  | { kind: 'default'; detail: string }
  | { kind: 'protected-path'; path: string; detail: string }
  | { kind: 'outside-project'; path: string; detail: string }
  | { kind: 'bash-analysis'; problems: string[] }
  | { kind: 'hook'; source?: string; detail: string }
  | { kind: 'settings-error'; file: string; detail: string }
  | { kind: 'sandbox'; detail: string }
  /** A glob or a recursive search would reach files a deny or ask rule covers. */
  | { kind: 'reaches-denied'; rule: RuleOrigin; detail: string }
  /** The tool's own permission check decided (it did not pass through to the general rules). */
  | { kind: 'tool'; tool: string; detail: string }

/** What the approval UI can show with an ask. */
export type DecisionPreview =
  | { kind: 'command'; command: string; subcommands: string[]; problems: string[] }
  | { kind: 'path'; path: string; operation: 'read' | 'edit'; /** Where a symlink really takes it. */ realPath?: string }
  | { kind: 'url'; url: string; domain: string }

/** The answer to "may this tool call run?". */
export type PermissionDecision =
  | { behavior: 'allow'; updatedInput?: unknown; explanation: Explanation }
  | { behavior: 'deny'; message: string; explanation: Explanation }
  | {
      behavior: 'ask'
      explanation: Explanation
      preview?: DecisionPreview
      suggestions?: string[]
      /**
       * Set only on the mode's own default ask (no rule, hook or review check decided): the one
       * kind of ask auto mode's classifier may judge. Every other ask is a floor it cannot lift.
       */
      classifiable?: true
    }

/** Renders an explanation as one line for people (approval cards, logs, headless denials). */
export function describeExplanation(e: Explanation): string {
  switch (e.kind) {
    case 'rule':
      return `${e.rule.behavior} rule ${e.rule.text} from ${describeOrigin(e.rule)}${e.detail ? `: ${e.detail}` : ''}`
    case 'mode':
      return `${e.mode} mode: ${e.detail}`
    case 'default':
      return e.detail
    case 'protected-path':
    case 'outside-project':
      return `${e.detail}: ${e.path}`
    case 'bash-analysis':
      return `command needs review: ${e.problems.join('; ')}`
    case 'hook':
      return `hook${e.source ? ` from ${e.source}` : ''}: ${e.detail}`
    case 'settings-error':
      return `settings file ${e.file}: ${e.detail}`
    case 'sandbox':
      return `sandbox: ${e.detail}`
    case 'reaches-denied':
      return `${e.detail}, where the ${e.rule.behavior} rule ${e.rule.text} from ${describeOrigin(e.rule)} applies`
    case 'tool':
      return `${e.tool}'s own check: ${e.detail}`
  }
}
