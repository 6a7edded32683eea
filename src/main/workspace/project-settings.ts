import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ProjectSettingsName, SettingsProblem } from '../../shared/ipc/contract'
import { firstJsonError, keyPathPosition, positionAt } from '../governance/settings/json-position'
import { hookEventProblem } from '../governance/hook-events'
import { SettingsFileSchema } from '../governance/settings/schema'
import { writeFileAtomic } from '../base/atomic-write'

/** The project's own settings files, as Claude Code names them. */
export const PROJECT_SETTINGS_NAMES: readonly ProjectSettingsName[] = ['settings.json', 'settings.local.json']

/** Reads both files as text (`exists: false` and empty text when missing), with their warnings. */
export async function readProjectSettings(
  projectPath: string,
): Promise<Array<{ name: ProjectSettingsName; path: string; exists: boolean; text: string; warnings: SettingsProblem[] }>> {
  return Promise.all(
    PROJECT_SETTINGS_NAMES.map(async (name) => {
      const path = join(projectPath, '.claude', name)
      const text = await readFile(path, 'utf8').catch(() => undefined)
      return { name, path, exists: text !== undefined, text: text ?? '', warnings: settingsWarnings(text ?? '') }
    }),
  )
}

/**
 * What in a settings text is valid yet will not do what it says: hook events that are not Claude
 * Code's, or that Sous does not fire yet. Each points at its key. Invalid text has none (its
 * problem comes first).
 */
export function settingsWarnings(text: string): SettingsProblem[] {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return []
  }
  const parsed = SettingsFileSchema.safeParse(raw)
  if (!parsed.success) return []
  return Object.keys(parsed.data.hooks ?? {}).flatMap((event) => {
    const message = hookEventProblem(event)
    return message ? [{ message: `hooks.${event}: ${message}`, ...keyPathPosition(text, ['hooks', event]) }] : []
  })
}

/**
 * Checks a settings text the way governance will read it: JSON syntax first, then the schema.
 * Returns where the first problem is, or `undefined` when the text is valid. Empty text is valid.
 */
export function validateSettingsText(text: string): SettingsProblem | undefined {
  if (text.trim() === '') return undefined
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    const message = (error as Error).message
    return { message: `Invalid JSON: ${message}`, ...positionAt(text, firstJsonError(text) ?? text.length) }
  }
  const parsed = SettingsFileSchema.safeParse(raw)
  if (parsed.success) return undefined
  const issue = parsed.error.issues[0]
  const path = issue?.path.map(String).join('.') || '(root)'
  return {
    message: `Invalid setting at ${path}: ${issue?.message ?? 'schema error'}`,
    ...keyPathPosition(text, issue?.path ?? []),
  }
}

/** Saves a valid text; an invalid one is not written and the problem is returned. */
export async function writeProjectSettings(
  projectPath: string,
  name: ProjectSettingsName,
  text: string,
): Promise<{ saved: boolean; problem?: SettingsProblem; warnings?: SettingsProblem[] }> {
  const problem = validateSettingsText(text)
  if (problem) return { saved: false, problem }
  await writeFileAtomic(join(projectPath, '.claude', name), text, 0o644)
  return { saved: true, warnings: settingsWarnings(text) }
}
