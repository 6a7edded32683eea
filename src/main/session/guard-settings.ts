import { readFileSync } from 'node:fs'
import { keyPathPosition } from '../governance/settings/json-position'
import { settingsFilePaths } from '../governance/settings/load'
import { EFFORT_LEVELS, type EffortLevel } from '../services/model/capabilities'

/** Spending caps; a missing one is no cap. Keys as in settings (`budget.sessionUsd`, …). */
export interface BudgetCaps {
  sessionUsd?: number
  projectUsd?: number
  sessionTokens?: number
  projectTokens?: number
}
export type BudgetKey = keyof BudgetCaps
export const BUDGET_KEYS: readonly BudgetKey[] = ['sessionUsd', 'projectUsd', 'sessionTokens', 'projectTokens']

/** The loop brake (settings `loopBrake.*`). */
export interface LoopBrakeSettings {
  enabled: boolean
  /** The same tool call with the same input this many times in a row pauses (N). */
  repeatedCalls: number
  /** This many requests in a row without a tool call or text not seen before in the turn pauses (K). */
  idleRequests: number
}

/**
 * Conservative defaults: five identical calls in a row is never progress; eight replies that add
 * nothing (the same calls, the same words) is a model going round in circles, not one being careful.
 */
export const DEFAULT_LOOP_BRAKE: LoopBrakeSettings = { enabled: true, repeatedCalls: 5, idleRequests: 8 }

/** What a session's guard and reasoning read from the settings files. */
export interface GuardSettings {
  budget: BudgetCaps
  loopBrake: LoopBrakeSettings
  /** `alwaysThinkingEnabled` (Claude Code's key); undefined: the default (on). */
  thinking?: boolean
  /** `effortLevel` (Claude Code's key). */
  effort?: EffortLevel
  /** `file:line:column: message` for every value refused; the default applies instead. */
  problems: string[]
}

/** Where the files are (tests); defaults as governance's settings loader has them. */
export interface GuardSettingsOptions {
  sousHome?: string
  managedPath?: string
}

/**
 * Reads the guard's and reasoning's keys from the managed, local, project and user settings files
 * (Claude Code's precedence, first wins). Caps and loop-brake numbers take the strictest (lowest)
 * value of any file, so a cloned repository can tighten them and never loosen them; the brake is
 * switched off only by the user's own or the managed file. A value that is not a positive number
 * (an effort that is not a level, an on/off that is not a boolean) is refused with its file and
 * line, and the default applies. Contract: never throws; a file that is missing or not JSON is
 * skipped here (governance reports unparseable settings).
 */
export function readGuardSettings(projectRoot: string, options: GuardSettingsOptions = {}): GuardSettings {
  const files = settingsFilePaths(projectRoot, options)
  const out: GuardSettings = { budget: {}, loopBrake: { ...DEFAULT_LOOP_BRAKE }, problems: [] }
  const brake: Partial<LoopBrakeSettings> = {}
  for (const [source, file] of [['managed', files.managed], ['local', files.local], ['project', files.project], ['user', files.user]] as const) {
    const parsed = readObject(file)
    if (!parsed) continue
    const { data, text } = parsed
    const refuse = (path: string[], message: string): void => {
      const at = keyPathPosition(text, path)
      out.problems.push(`${file}:${at.line}:${at.column}: ${path.join('.')} ${message}; the default applies`)
    }
    const budget = section(data, 'budget', refuse)
    for (const key of BUDGET_KEYS) {
      const value = positive(budget?.[key], ['budget', key], refuse)
      if (value !== undefined) out.budget[key] = Math.min(out.budget[key] ?? Infinity, value)
    }
    const loop = section(data, 'loopBrake', refuse)
    for (const key of ['repeatedCalls', 'idleRequests'] as const) {
      const value = positive(loop?.[key], ['loopBrake', key], refuse, true)
      if (value !== undefined) brake[key] = Math.min(brake[key] ?? Infinity, value)
    }
    const enabled = bool(loop?.['enabled'], ['loopBrake', 'enabled'], refuse)
    if (enabled === false && (source === 'user' || source === 'managed')) brake.enabled ??= false
    const thinking = bool(data['alwaysThinkingEnabled'], ['alwaysThinkingEnabled'], refuse)
    if (thinking !== undefined) out.thinking ??= thinking
    const effort = data['effortLevel']
    if (effort !== undefined) {
      if (typeof effort === 'string' && (EFFORT_LEVELS as readonly string[]).includes(effort)) out.effort ??= effort as EffortLevel
      else refuse(['effortLevel'], `must be one of ${EFFORT_LEVELS.join(', ')}`)
    }
  }
  out.loopBrake = { ...out.loopBrake, ...brake }
  return out
}

function readObject(file: string): { data: Record<string, unknown>; text: string } | undefined {
  try {
    const text = readFileSync(file, 'utf8')
    const data = JSON.parse(text) as unknown
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? { data: data as Record<string, unknown>, text } : undefined
  } catch {
    return undefined
  }
}

type Refuse = (path: string[], message: string) => void

function section(data: Record<string, unknown>, key: string, refuse: Refuse): Record<string, unknown> | undefined {
  const value = data[key]
  if (value === undefined) return undefined
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>
  refuse([key], 'must be an object')
  return undefined
}

function positive(value: unknown, path: string[], refuse: Refuse, integer = false): number | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'number' && Number.isFinite(value) && value > 0 && (!integer || Number.isInteger(value))) return value
  refuse(path, `must be a positive ${integer ? 'integer' : 'number'} (got ${JSON.stringify(value)})`)
  return undefined
}

function bool(value: unknown, path: string[], refuse: Refuse): boolean | undefined {
  if (value === undefined) return undefined
  if (typeof value === 'boolean') return value
  refuse(path, `must be true or false (got ${JSON.stringify(value)})`)
  return undefined
}
