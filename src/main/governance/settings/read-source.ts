/**
 * Reading one settings source: a file (absent is no source; unreadable, bad JSON or a schema error
 * fails closed) or, for `--settings '{…}'`, JSON text given on the command line.
 */

import { existsSync, readFileSync } from 'node:fs'
import { standsForNothing } from '../../base/placeholder-folder'
import type { SettingsSourceName } from '../types'
import { jsonErrorPosition, keyPathPosition } from './json-position'
import type { Source } from './load-problems'
import { SettingsFileSchema } from './schema'
import type { MergedSettings, SettingsDiagnostic } from './types'

/** Reads one settings file; never throws (a broken file is listed in `merged.broken`, its deny/ask lists kept). */
export function readSource(name: SettingsSourceName, file: string, sourceRoot: string, merged: MergedSettings, diagnostics: SettingsDiagnostic[]): Source {
  // A placeholder folder is what the sandbox puts in place of a settings file that is not there while a command runs: no file.
  if (!existsSync(file) || standsForNothing(file)) return { name, file, sourceRoot }
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    return brokenSource(name, file, sourceRoot, merged, diagnostics, `cannot be read: ${(e as Error).message}`)
  }
  return parseSource(name, file, text, sourceRoot, merged, diagnostics)
}

/**
 * A source from its text (`file` absent: JSON given on the command line, reported as `--settings`).
 * Contract: never throws; what cannot be parsed fails closed as {@link readSource} does.
 */
export function parseSource(name: SettingsSourceName, file: string | undefined, text: string, sourceRoot: string, merged: MergedSettings, diagnostics: SettingsDiagnostic[]): Source {
  const where = file ?? '--settings'
  // Inline JSON has no file: its rules are named by the flag alone.
  const broken = (message: string, at?: { line: number; column: number }): Source => {
    const src = brokenSource(name, where, sourceRoot, merged, diagnostics, message, at)
    return file ? src : { name, sourceRoot }
  }
  if (text.trim() === '') return { name, ...(file && { file }), sourceRoot, text }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    const message = (e as Error).message
    return { ...broken(`invalid JSON: ${message}`, jsonErrorPosition(text, message)), text }
  }
  const parsed = SettingsFileSchema.safeParse(raw)
  if (parsed.success) return { name, ...(file && { file }), sourceRoot, data: parsed.data, text }
  const issue = parsed.error.issues[0]
  const at = issue ? keyPathPosition(text, issue.path) : undefined
  const path = issue?.path.join('.') ?? ''
  const src: Source = { ...broken(`invalid settings at ${path || '(root)'}: ${issue?.message ?? 'schema error'}`, at), text }
  // Restrictions we can still read are kept: a broken file must never loosen anything.
  src.data = { permissions: { deny: stringList(raw, 'deny'), ask: stringList(raw, 'ask') } }
  return src
}

function stringList(raw: unknown, key: 'deny' | 'ask'): string[] | undefined {
  const perms = (raw as { permissions?: Record<string, unknown> } | null)?.permissions
  const list = perms?.[key]
  return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : undefined
}

function brokenSource(
  name: SettingsSourceName,
  file: string,
  sourceRoot: string,
  merged: MergedSettings,
  diagnostics: SettingsDiagnostic[],
  message: string,
  at?: { line: number; column: number },
): Source {
  const located = at ? `${file}:${at.line}:${at.column}: ${message}` : `${file}: ${message}`
  diagnostics.push({ source: name, file, level: 'error', message: located, line: at?.line, column: at?.column })
  merged.broken.push({ file, message: located })
  return { name, file, sourceRoot }
}

