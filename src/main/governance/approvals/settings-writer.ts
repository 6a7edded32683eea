import { existsSync, readFileSync } from 'node:fs'
import { writeFileAtomicSync } from '../../base/atomic-write'
import { jsonErrorPosition } from '../settings/json-position'
import type { RuleBehavior } from '../types'

/**
 * Adds rules to a settings file's `permissions.<behavior>` list, keeping every other key.
 * Contract: never clobbers a file it cannot parse; returns an error message instead. Writes go to a
 * temp file renamed over the original, so a crash leaves the old file or the new one, never half.
 */
export function addRulesToSettingsFile(file: string, behavior: RuleBehavior, rules: string[]): string | undefined {
  let data: Record<string, unknown> = {}
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8')
    if (text.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(text)
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return `${file} does not hold a JSON object; not changed`
        data = parsed as Record<string, unknown>
      } catch (e) {
        const at = jsonErrorPosition(text, (e as Error).message)
        return `${file}:${at.line}:${at.column}: cannot add the rule, the file is not valid JSON (${(e as Error).message}); not changed`
      }
    }
  }
  const perms = (data.permissions ?? {}) as Record<string, unknown>
  if (typeof perms !== 'object' || Array.isArray(perms)) return `${file}: "permissions" is not an object; not changed`
  const list = perms[behavior] ?? []
  if (!Array.isArray(list)) return `${file}: "permissions.${behavior}" is not a list; not changed`
  for (const r of rules) if (!list.includes(r)) list.push(r)
  perms[behavior] = list
  data.permissions = perms
  try {
    writeFileAtomicSync(file, `${JSON.stringify(data, null, 2)}\n`, 0o644)
  } catch (error) {
    return `${file}: cannot save the rule (${(error as Error).message}); not changed`
  }
  return undefined
}
