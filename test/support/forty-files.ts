/**
 * The forty-file task of issue 23, shared by the bench (bench/long-context.bench.ts) and its test: a project of forty 45 KB
 * files, and a scripted model that reads them one a turn (`Read`, one file per request), answers
 * summary requests (Sous's and Claude Code's) with a short summary, side requests (no tools, or
 * a Haiku model) with "ok", and ends with "Done.". It works out the next file from the newest
 * `toolu_read_<n>` id the request carries, so a compaction in between does not lose its place.
 */
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RecordedRequest, ReplySpec, Step, StepAction, StepOptions } from '../model-server'
import { estimateTokens, flattenPrompt } from '../model-server/cache-sim'
import { outputTokens } from '../model-server/wire'

/** How many files, and how big each is. */
export const FILES = 40
export const FILE_BYTES = 45_000

/** List prices of the bench, USD per million tokens (Sonnet). */
export const PRICES = { input: 3, cacheWrite: 3.75, cacheRead: 0.3, output: 15 }

/** A temp project with the forty files; returns its path and each file's path. */
export async function fortyFileProject(): Promise<{ project: string; files: string[] }> {
  const project = await mkdtemp(join(tmpdir(), 'sous-forty-files-'))
  const files: string[] = []
  for (let index = 0; index < FILES; index++) {
    const lines: string[] = []
    let size = 0
    for (let line = 0; size < FILE_BYTES; line++) {
      const text = `file ${index} line ${line}: const value${line} = compute(${line * 7 + index}, "some text here");`
      lines.push(text)
      size += text.length + 1
    }
    const path = join(project, `file${String(index).padStart(2, '0')}.ts`)
    await writeFile(path, `${lines.join('\n')}\n`)
    files.push(path)
  }
  return { project, files }
}

/** Whether a request is a summary request of Sous (tool_choice none) or Claude Code (its compact prompt). */
function isSummary(request: RecordedRequest): boolean {
  if ((request.body['tool_choice'] as { type?: string } | undefined)?.type === 'none') return true
  const messages = request.body['messages'] as Array<{ role: string; content: unknown }> | undefined
  const last = JSON.stringify(messages?.at(-1)?.content ?? '')
  return /create a detailed summary of the conversation/i.test(last)
}

/** The looping scenario step for the task (see the file's comment), and the output tokens of each reply it gave. */
export function fortyFilesScript(files: readonly string[]): { step: Step; outputs: number[] } {
  let issued = -1
  const outputs: number[] = []
  const reply = (spec: ReplySpec): StepAction & StepOptions => {
    outputs.push(outputTokens(spec))
    return { reply: spec }
  }
  const step = (request: RecordedRequest): StepAction & StepOptions => {
    const tools = (request.body['tools'] as unknown[] | undefined) ?? []
    if (isSummary(request)) return reply({ content: [{ type: 'text', text: `<analysis>Reading files.</analysis>\n<summary>\nThe user asked for the forty files file00.ts … file39.ts to be read one at a time; ${issued + 1} have been read. Go on with the next one.\n</summary>` }] })
    if (tools.length === 0 || request.model.includes('haiku')) return reply({ content: [{ type: 'text', text: 'ok' }] })
    const ids = [...JSON.stringify(request.body['messages'] ?? '').matchAll(/toolu_read_(\d+)/g)].map((match) => Number(match[1]))
    const next = (ids.length > 0 ? Math.max(...ids) : issued) + 1
    if (next >= files.length) return reply({ content: [{ type: 'text', text: 'Done.' }] })
    issued = Math.max(issued, next)
    return reply({ content: [{ type: 'tool_use', id: `toolu_read_${next}`, name: 'Read', input: { file_path: files[next]! } }] })
  }
  return { step, outputs }
}

/** The bill of a run at {@link PRICES}, from the server's simulated usage (output: ~4 characters a token of the replies). */
export interface Bill {
  requests: number
  input: number
  cacheWrite: number
  cacheRead: number
  output: number
  usd: number
  /** Cache reads over all input tokens (input + writes + reads). */
  readShare: number
}

/** Adds up what a run's requests cost. `outputTokens` per request as the server reported it. */
export function billOf(requests: readonly RecordedRequest[], outputTokens: readonly number[]): Bill {
  let input = 0
  let cacheWrite = 0
  let cacheRead = 0
  for (const request of requests) {
    input += request.simulatedUsage.input_tokens
    cacheWrite += request.simulatedUsage.cache_creation_input_tokens
    cacheRead += request.simulatedUsage.cache_read_input_tokens
  }
  const output = outputTokens.reduce((sum, tokens) => sum + tokens, 0)
  const usd = (input * PRICES.input + cacheWrite * PRICES.cacheWrite + cacheRead * PRICES.cacheRead + output * PRICES.output) / 1e6
  const all = input + cacheWrite + cacheRead
  return { requests: requests.length, input, cacheWrite, cacheRead, output, usd, readShare: all === 0 ? 0 : cacheRead / all }
}

/**
 * Requests whose messages are not the previous request's messages plus new ones at the end: each
 * rewrote (or dropped) an earlier message, and so paid a cache write of what followed it.
 * Summary requests are left out (they are a conversation of their own).
 */
export function rewrites(requests: readonly RecordedRequest[]): number {
  let count = 0
  let previous: string[] | undefined
  for (const request of requests) {
    if (isSummary(request)) continue
    const messages = (request.body['messages'] as unknown[]).map((message) => JSON.stringify(message).replace(/,"cache_control":\{[^}]*\}/g, ''))
    // The newest message of the previous request may have grown (reminders, merged results): compare all but it.
    if (previous && previous.slice(0, -1).some((message, index) => messages[index] !== message)) count++
    previous = messages
  }
  return count
}

/**
 * Of the prompt tokens a request sent again (blocks an earlier request had sent as they are), the
 * share read from the cache: what cache-aware clearing is about. New content (each file, written
 * once) is left out; the raw cache-read share counts it, so a task of fresh content cannot reach
 * a high raw share without re-reading more than it needs.
 */
export function resentReadShare(requests: readonly RecordedRequest[]): number {
  const seen = new Set<string>()
  let resent = 0
  let read = 0
  for (const request of requests) {
    for (const block of flattenPrompt(request.body)) {
      if (seen.has(block.key)) resent += estimateTokens(block.key)
      seen.add(block.key)
    }
    read += request.simulatedUsage.cache_read_input_tokens
  }
  return resent === 0 ? 1 : Math.min(1, read / resent)
}

/** Prompt tokens a run sent for the first time (blocks no earlier request had): new content, which can only be paid as plain input or a cache write. */
export function freshTokens(requests: readonly RecordedRequest[]): number {
  const seen = new Set<string>()
  let fresh = 0
  for (const request of requests) {
    for (const block of flattenPrompt(request.body)) {
      if (!seen.has(block.key)) fresh += estimateTokens(block.key)
      seen.add(block.key)
    }
  }
  return fresh
}

/**
 * The least any strategy can pay (USD, prompt only) for `fresh` new tokens at a cache-read share of
 * `share`: each new token costs at least plain input, and the share needs `share / (1 − share)`
 * read tokens for every token not read (reads of 0.85 need 5.67 each): 3 + 0.3 × 5.67 = 4.7 USD
 * per million new tokens. See docs/design/context-and-compaction.md.
 */
export function shareFloorUsd(fresh: number, share: number): number {
  return (fresh * (PRICES.input + (PRICES.cacheRead * share) / (1 - share))) / 1e6
}

