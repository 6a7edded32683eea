/**
 * Claude Code's `autoMode` settings block: lines of guidance for auto mode's classifier (`allow`,
 * `soft_deny`, `environment`; `deny`/`hard_deny` are read as `soft_deny`, since Sous's hard floors
 * are its deny rules), plus Sous's `model` (the classifier's model; Claude Code names it with the
 * `CLAUDE_CODE_AUTO_MODE_MODEL` variable, which wins). As in Claude Code, only the user's own
 * settings and managed policy may set them: a repository's files (project, local) are ignored with
 * a warning, since they would let the repository talk the classifier into allowing its calls.
 */
import type { SettingsFile } from './schema'
import type { AutoModeSettings, SettingsDiagnostic } from './types'
import type { SettingsSourceName } from '../types'

const TRUSTED = new Set<SettingsSourceName>(['managed', 'user', 'cli', 'flag'])
const LINE_CHARS = 500
const LINES_KEPT = 40

/** An empty block. */
export function emptyAutoMode(): AutoModeSettings {
  return { allow: [], softDeny: [], environment: [] }
}

/** Folds one source's `autoMode` into `into` (lists merge; `model` from the highest source). Never throws. */
export function readAutoModeKeys(data: SettingsFile, source: { name: SettingsSourceName; file?: string }, into: AutoModeSettings, diagnostics: SettingsDiagnostic[]): void {
  const block = data['autoMode']
  if (block === undefined) return
  const warn = (message: string): void => void diagnostics.push({ source: source.name, file: source.file, level: 'warning', message })
  if (!TRUSTED.has(source.name)) {
    warn('autoMode is ignored here: only your user settings or managed settings may guide auto mode (a repository\'s files could talk the classifier into allowing their own calls)')
    return
  }
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return warn(`autoMode ${JSON.stringify(block)} is ignored: expected an object`)
  const record = block as Record<string, unknown>
  const lines = (key: string): string[] => {
    const value = record[key]
    if (value === undefined) return []
    if (!Array.isArray(value) || !value.every((line) => typeof line === 'string')) {
      warn(`autoMode.${key} is ignored: expected a list of strings`)
      return []
    }
    return value.map((line) => line.trim().slice(0, LINE_CHARS)).filter((line) => line.length > 0)
  }
  into.allow.push(...lines('allow'))
  into.softDeny.push(...lines('soft_deny'), ...lines('deny'), ...lines('hard_deny'))
  into.environment.push(...lines('environment'))
  for (const list of [into.allow, into.softDeny, into.environment]) list.splice(LINES_KEPT)
  const model = record['model']
  if (model !== undefined && into.model === undefined) {
    if (typeof model === 'string' && /^[\w.:@/[\]-]{1,200}$/.test(model.trim())) into.model = model.trim()
    else warn(`autoMode.model ${JSON.stringify(model)} is ignored: expected a model id or alias`)
  }
}
