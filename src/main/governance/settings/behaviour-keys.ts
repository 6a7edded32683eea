/**
 * Claude Code settings keys that change behaviour Sous has besides permissions (2.1.328). Each is
 * read with Claude Code's own leniency: a bad value is one warning and is ignored, never a broken
 * file; keys Sous does not know stay harmless.
 */
import type { SettingsFile } from './schema'
import type { BehaviourSettings, SettingsDiagnostic } from './types'
import type { SettingsSourceName } from '../types'

export type { BehaviourSettings }

const STRICTNESS = { accept: 0, hold: 1, refuse: 2 } as const

/** Claude Code's clamp of `bashOutputMaxChars`. */
export const BASH_OUTPUT_MAX_CHARS = { min: 4_000, default: 30_000, max: 128_000 } as const

/**
 * Folds one source's keys into `into`; sources come highest first, so a key already set stays.
 * Contract: never throws; a wrong value is a warning in `diagnostics`.
 */
export function readBehaviourKeys(data: SettingsFile, source: { name: SettingsSourceName; file?: string }, into: BehaviourSettings, diagnostics: SettingsDiagnostic[]): void {
  const warn = (key: string, value: unknown, expected: string): void => {
    diagnostics.push({ source: source.name, file: source.file, level: 'warning', message: `${key} ${JSON.stringify(value)} is ignored: expected ${expected}` })
  }
  const chars = data['bashOutputMaxChars']
  if (chars !== undefined && into.bashOutputMaxChars === undefined) {
    if (typeof chars === 'number' && Number.isInteger(chars) && chars > 0) into.bashOutputMaxChars = Math.min(BASH_OUTPUT_MAX_CHARS.max, Math.max(BASH_OUTPUT_MAX_CHARS.min, chars))
    else warn('bashOutputMaxChars', chars, 'a positive whole number of characters (4000–128000)')
  }
  const ttl = data['promptCacheTtl']
  if (ttl !== undefined && into.promptCacheTtl === undefined) {
    if (ttl === '5m' || ttl === '1h') into.promptCacheTtl = ttl
    else warn('promptCacheTtl', ttl, '"5m" or "1h"')
  }
  const background = data['agentsInBackground']
  if (background !== undefined && into.agentsInBackground === undefined) {
    if (typeof background === 'boolean') into.agentsInBackground = background
    else warn('agentsInBackground', background, 'true or false')
  }
  const peers = data['crossSessionMessages']
  if (peers !== undefined) {
    if (peers !== 'accept' && peers !== 'hold' && peers !== 'refuse') warn('crossSessionMessages', peers, '"accept", "hold" or "refuse"')
    // A repository's settings (project, local) are untrusted: they may only make the policy stricter.
    else if (source.name === 'project' || source.name === 'local') {
      if (into.crossSessionMessagesFloor === undefined || STRICTNESS[peers] > STRICTNESS[into.crossSessionMessagesFloor]) into.crossSessionMessagesFloor = peers
    } else if (into.crossSessionMessages === undefined) into.crossSessionMessages = peers
  }
  const defer = data['deferBuiltinTools']
  if (defer !== undefined && into.deferBuiltinTools === undefined) {
    if (typeof defer === 'boolean') into.deferBuiltinTools = defer
    else warn('deferBuiltinTools', defer, 'true or false')
  }
}
