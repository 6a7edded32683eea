import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Preferences } from '../../shared/ipc/preferences'
import { AppError } from '../../shared/ipc/result'
import { FALLBACK_SECRETS, type ChildEnvPolicy } from '../base/child-env'
import { firstJsonError, positionAt } from '../governance/settings/json-position'
import { writeFileAtomic } from '../base/atomic-write'

/**
 * Sous's preferences live under the `"sous"` key of `$SOUS_HOME/settings.json`, the same file
 * that holds Claude-Code-style settings (permissions, hooks…), which are kept as they are.
 */

export const DEFAULT_PREFERENCES: Preferences = { theme: 'system', fontSize: 13 }

/** The file, parsed; `{}` when missing. A file that is not a JSON object fails closed (CONFLICT, with line and column). */
async function readSettingsObject(file: string): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw new AppError('UNAVAILABLE', `Cannot read ${file}: ${(error as Error).message}`)
  }
  if (text.trim() === '') return {}
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    const at = positionAt(text, firstJsonError(text) ?? text.length)
    throw new AppError(
      'CONFLICT',
      `${file} is not valid JSON (line ${at.line}, column ${at.column}); fix it before changing settings here.`,
    )
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new AppError('CONFLICT', `${file} must hold a JSON object.`)
  return raw as Record<string, unknown>
}

/** Reads the preferences: defaults for what is missing, and for values that are not valid. */
export async function readPreferences(home: string): Promise<Preferences> {
  const data = await readSettingsObject(join(home, 'settings.json'))
  return coerce(data.sous)
}

function coerce(value: unknown): Preferences {
  const merged: Record<string, unknown> = { ...DEFAULT_PREFERENCES }
  if (typeof value === 'object' && value !== null) {
    // Field by field: one bad value must not throw away the others.
    for (const [key, field] of Object.entries(Preferences.shape)) {
      const candidate = (value as Record<string, unknown>)[key]
      if (candidate !== undefined && field.safeParse(candidate).success) merged[key] = candidate
    }
  }
  return Preferences.parse(merged)
}

/** Applies `changes` (an empty string clears an optional field) and writes the file atomically. */
export async function updatePreferences(home: string, changes: Partial<Preferences>): Promise<Preferences> {
  const file = join(home, 'settings.json')
  const data = await readSettingsObject(file)
  const next: Record<string, unknown> = { ...coerce(data.sous) }
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === '') delete next[key]
    else next[key] = value
  }
  const preferences = coerce(next)
  await writeFileAtomic(file, `${JSON.stringify({ ...data, sous: preferences }, null, 2)}\n`)
  return preferences
}

/**
 * The preferences for a session that is opening (sync: sessions are set up synchronously).
 * A missing or unreadable file gives the defaults: preferences only choose among values the
 * user could also set in the environment, so falling back loosens nothing.
 */
export function readPreferencesSync(home: string): Preferences {
  try {
    const data = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8')) as unknown
    return coerce(
      typeof data === 'object' && data !== null ? (data as Record<string, unknown>).sous : undefined,
    )
  } catch {
    return { ...DEFAULT_PREFERENCES }
  }
}

/**
 * Which variables children must not get, from the preferences (read at each spawn, so a change
 * applies to the next command). Contract: fails closed — a settings file that exists but cannot be
 * read, or a `secretEnv`/`passEnv` that is not a list of names, hides the usual credential names
 * too and passes nothing through.
 */
export function readChildEnvPolicy(home: string): ChildEnvPolicy {
  let data: unknown
  try {
    data = JSON.parse(readFileSync(join(home, 'settings.json'), 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    return { secrets: FALLBACK_SECRETS }
  }
  const sous = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).sous : undefined
  if (sous === undefined) return {}
  const fields = typeof sous === 'object' && sous !== null ? (sous as Record<string, unknown>) : {}
  const secrets = Preferences.shape.secretEnv.safeParse(fields.secretEnv)
  const passThrough = Preferences.shape.passEnv.safeParse(fields.passEnv)
  if (typeof sous !== 'object' || !secrets.success || !passThrough.success) return { secrets: FALLBACK_SECRETS }
  return { secrets: secrets.data ?? [], passThrough: passThrough.data ?? [] }
}
