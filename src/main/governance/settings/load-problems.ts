/**
 * What the settings loader says about values it cannot use: one diagnostic per problem, with file
 * and line where it can, so a bad value is reported on its key and the rest of the file applies.
 */
import { PERMISSION_MODE_SPELLINGS } from '../../../shared/permission-modes'
import type { SettingsSourceName } from '../types'
import { keyPathPosition } from './json-position'
import type { SettingsFile } from './schema'
import type { MergedSettings, SettingsDiagnostic } from './types'

/** One settings source as read: where it is, what it said, and its text (fingerprinted for trust). */
export interface Source {
  name: SettingsSourceName
  file?: string
  sourceRoot: string
  data?: SettingsFile
  /** The file's text as read (the project's files are fingerprinted for trust). */
  text?: string
}

/** One notice for everything an untrusted project asked for (stable text, so it is shown once). */
export function untrustedNotice(ignored: string[]): SettingsDiagnostic {
  const shown = ignored.slice(0, 6).join('; ')
  const more = ignored.length > 6 ? `; and ${ignored.length - 6} more` : ''
  return {
    source: 'project',
    level: 'warning',
    message: `This project's own settings are not trusted, so Sous ignores what would loosen its permissions: ${shown}${more}. Deny and ask rules still apply. To use them, review the project's trust (command palette: "Review project trust…").`,
  }
}

/** Handler types Claude Code has that Sous does not run (the hook inspector lists them as such). */
export function handlerProblem(type: string): string | undefined {
  if (type === 'command' || type === 'http' || type === 'prompt') return undefined
  if (type === 'agent' || type === 'mcp_tool') return `${type} hooks are not run by Sous yet; the hook inspector lists them as not run.`
  return `"${type}" is not a hook handler type (command, http, prompt, agent, mcp_tool); it never runs.`
}

/** A warning on one key of a source, with the key's `file:line:column` when the text is there. */
function keyWarning(src: Source, keyPath: string[], message: string): SettingsDiagnostic {
  const at = src.text !== undefined ? keyPathPosition(src.text, keyPath) : undefined
  const where = src.file ? `${src.file}${at ? `:${at.line}:${at.column}` : ''}: ` : ''
  return { source: src.name, file: src.file, level: 'warning', message: `${where}${message}`, ...(at && { line: at.line, column: at.column }) }
}

/** An unknown `defaultMode`: one warning on that key, with its line; the rest of the file applies. */
export function unknownModeProblem(src: Source, value: string): SettingsDiagnostic {
  return keyWarning(src, ['permissions', 'defaultMode'], `permissions.defaultMode "${value}" is not a permission mode (${PERMISSION_MODE_SPELLINGS.join(', ')}); it is ignored and sessions start in manual mode`)
}

/**
 * A repository's `defaultMode` of `bypassPermissions` or `auto`: never obeyed, trusted or not (as
 * in Claude Code, only the user's own settings, managed policy or the command line may start a
 * session there); one warning on that key.
 */
export function userOnlyModeProblem(src: Source, mode: string): SettingsDiagnostic {
  return keyWarning(src, ['permissions', 'defaultMode'], `permissions.defaultMode "${mode}" is ignored: only your user settings, managed settings or --permission-mode may start a session in ${mode} (a repository's files are not yours)`)
}

/**
 * `autoCompactWindow` from one source, highest precedence first: a positive whole number of
 * tokens, else a warning with file and line, and the value is left out (the default applies). A
 * bad threshold must not fail the whole file closed: it loosens nothing.
 */
export function readAutoCompactWindow(merged: MergedSettings, diagnostics: SettingsDiagnostic[], src: Source): void {
  const value = (src.data as Record<string, unknown> | undefined)?.['autoCompactWindow']
  if (value === undefined) return
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) {
    merged.autoCompactWindow ??= value
    return
  }
  diagnostics.push(keyWarning(src, ['autoCompactWindow'], `autoCompactWindow must be a positive whole number of tokens, not ${JSON.stringify(value)}; compaction uses the model's window`))
}
