import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { resultText } from './result-text'
import type { ToolResult } from './types'

/** A single result longer than this is persisted (unless its tool is exempt). */
export const MAX_RESULT_CHARS = 50_000
/** The results of one message together stay under this. */
export const MAX_MESSAGE_RESULT_CHARS = 200_000
/** How much of a persisted result the model still sees. */
export const PREVIEW_CHARS = 2_000

/** One result of a message, as the engine holds it. */
export interface BudgetEntry {
  toolUseId: string
  /** The tool's own limit: `Infinity` exempts it (Read). */
  maxResultChars?: number
  result: ToolResult
}

/**
 * Keeps the tool results of one assistant message within budget: every result over its limit
 * (default {@link MAX_RESULT_CHARS}) is written to `<resultsDir>/<toolUseId>.txt` (the session's
 * folder, `base/paths.ts` `toolResultsDir`)
 * and replaced by a preview plus the path; then, while the message is still over
 * {@link MAX_MESSAGE_RESULT_CHARS}, the largest remaining results are persisted too.
 *
 * **Contract:** returns the entries' results in the same order; never throws. A result whose file
 * cannot be written is cut to its preview with a note instead, so the budget holds regardless.
 */
export async function applyResultBudget(entries: readonly BudgetEntry[], resultsDir: string): Promise<ToolResult[]> {
  const results = entries.map((entry) => entry.result)
  const sizes = results.map(textLength)
  const persisted = new Set<number>()
  entries.forEach((entry, index) => {
    if (sizes[index]! > (entry.maxResultChars ?? MAX_RESULT_CHARS)) persisted.add(index)
  })
  let total = sizes.reduce((sum, size, index) => sum + (persisted.has(index) ? PREVIEW_CHARS + 300 : size), 0)
  const candidates = entries
    .map((entry, index) => ({ index, size: sizes[index]!, exempt: entry.maxResultChars === Infinity }))
    .filter((c) => !c.exempt && !persisted.has(c.index) && c.size > PREVIEW_CHARS + 300)
    .sort((a, b) => b.size - a.size)
  for (const candidate of candidates) {
    if (total <= MAX_MESSAGE_RESULT_CHARS) break
    persisted.add(candidate.index)
    total -= candidate.size - (PREVIEW_CHARS + 300)
  }
  return Promise.all(
    results.map((result, index) =>
      persisted.has(index) ? persistResult(result, entries[index]!.toolUseId, resultsDir) : result,
    ),
  )
}

/** Writes the full text to disk and returns the preview result. */
export async function persistResult(result: ToolResult, toolUseId: string, dir: string): Promise<ToolResult> {
  const full = resultText(result.content)
  const preview = full.slice(0, PREVIEW_CHARS)
  const file = join(dir, `${toolUseId.replace(/[^A-Za-z0-9_-]/g, '_')}.txt`)
  let where: string
  try {
    await mkdir(dir, { recursive: true })
    await writeFile(file, full)
    where = `Full output saved to: ${file}\nUse Read with offset and limit (or Grep) on that file to see more.`
  } catch (error) {
    where = `The full output could not be saved (${error instanceof Error ? error.message : String(error)}); only the preview is available.`
  }
  const content =
    `<persisted-output>\nOutput too large (${full.length.toLocaleString('en-US')} characters). ${where}\n\n` +
    `Preview (first ${PREVIEW_CHARS.toLocaleString('en-US')} characters):\n${preview}\n...\n</persisted-output>`
  return { ...result, content, details: result.details }
}

function textLength(result: ToolResult): number {
  if (typeof result.content === 'string') return result.content.length
  return result.content.reduce((sum, block) => sum + (block.type === 'text' ? block.text.length : 0), 0)
}
