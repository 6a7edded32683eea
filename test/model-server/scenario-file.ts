import { readFile } from 'node:fs/promises'
import type { JsonStep } from './types'

/** A scenario as JSON: a bare array of steps, or `{ steps, loop }`. */
export interface JsonScenario {
  steps: JsonStep[]
  loop: boolean
}

/**
 * Validates a parsed JSON scenario. Returns an error message for anything that is not a list of
 * steps each having exactly one of reply / error / midStreamError / drop (fail closed).
 */
export function parseScenario(value: unknown): { ok: true; value: JsonScenario } | { ok: false; error: string } {
  const container = Array.isArray(value) ? { steps: value, loop: false } : value
  if (typeof container !== 'object' || container === null || !Array.isArray((container as { steps?: unknown }).steps)) {
    return { ok: false, error: 'a scenario is an array of steps or an object { "steps": [...], "loop"?: boolean }' }
  }
  const { steps, loop } = container as { steps: unknown[]; loop?: unknown }
  for (const [i, step] of steps.entries()) {
    if (typeof step !== 'object' || step === null) return { ok: false, error: `step ${i} is not an object` }
    const kinds = ['reply', 'error', 'midStreamError', 'drop'].filter((k) => k in step)
    if (kinds.length !== 1) return { ok: false, error: `step ${i} must have exactly one of reply, error, midStreamError, drop (has: ${kinds.join(', ') || 'none'})` }
    const s = step as Record<string, unknown>
    if ('reply' in s && !Array.isArray((s['reply'] as { content?: unknown } | null)?.content)) {
      return { ok: false, error: `step ${i}: reply.content must be an array of blocks` }
    }
    if ('error' in s && typeof (s['error'] as { status?: unknown } | null)?.status !== 'number') {
      return { ok: false, error: `step ${i}: error.status must be a number` }
    }
    if ('drop' in s && s['drop'] !== 'before-headers' && s['drop'] !== 'mid-stream') {
      return { ok: false, error: `step ${i}: drop must be "before-headers" or "mid-stream"` }
    }
  }
  return { ok: true, value: { steps: steps as JsonStep[], loop: loop === true } }
}

/** Reads and validates a scenario file. Throws with the file name on bad input (CLI boundary). */
export async function loadScenarioFile(path: string): Promise<JsonScenario> {
  let parsed: unknown
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'))
  } catch (error) {
    throw new Error(`cannot read scenario ${path}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const result = parseScenario(parsed)
  if (!result.ok) throw new Error(`invalid scenario ${path}: ${result.error}`)
  return result.value
}
