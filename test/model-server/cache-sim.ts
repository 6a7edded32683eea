import { createHash } from 'node:crypto'
import type { SimulatedUsage } from './types'

/**
 * A deterministic stand-in for the API's prompt cache, good enough to measure what our
 * breakpoint placement would save. The prompt is flattened into blocks in cache order
 * (tools → system → messages); each block costs ceil(chars/4) tokens of its JSON without
 * `cache_control`. A breakpoint stores the hash of the prefix ending at it. A later request reads
 * the longest prefix ending at a stored breakpoint (and not past its own last breakpoint), writes
 * the rest up to its last breakpoint, and pays plain input for what follows.
 */
export class PromptCacheSimulator {
  private readonly stored = new Set<string>()

  constructor(private readonly minCacheTokens = 0) {}

  /** Accounts a request body and remembers its breakpoints for the next ones. */
  account(body: Record<string, unknown>): SimulatedUsage {
    const measured = this.measure(body)
    measured.commit()
    return measured.usage
  }

  /**
   * Accounts a request body without storing anything; `commit()` stores its breakpoints (the
   * server commits only requests that were answered, as a rejected request writes no cache).
   */
  measure(body: Record<string, unknown>): { usage: SimulatedUsage; commit: () => void } {
    const blocks = flattenPrompt(body)
    const hashes: string[] = []
    const cumulative: number[] = []
    let hash = ''
    let total = 0
    for (const block of blocks) {
      hash = createHash('sha256').update(hash).update(block.key).digest('hex')
      total += estimateTokens(block.key)
      hashes.push(hash)
      cumulative.push(total)
    }
    const breakpoints = blocks.flatMap((block, i) => (block.breakpoint ? [i] : []))
    if (body['cache_control'] && blocks.length > 0) breakpoints.push(blocks.length - 1)
    const lastBreakpoint = breakpoints.length > 0 ? Math.max(...breakpoints) : -1

    let readEnd = -1
    for (let i = lastBreakpoint; i >= 0; i--) {
      if (this.stored.has(hashes[i] ?? '')) {
        readEnd = i
        break
      }
    }
    const read = readEnd >= 0 ? (cumulative[readEnd] ?? 0) : 0
    const upToLast = lastBreakpoint >= 0 ? (cumulative[lastBreakpoint] ?? 0) : 0
    const cacheable = upToLast >= this.minCacheTokens
    const creation = cacheable && lastBreakpoint > readEnd ? upToLast - read : 0

    const commit = (): void => {
      for (const i of breakpoints) {
        if ((cumulative[i] ?? 0) >= this.minCacheTokens) this.stored.add(hashes[i] ?? '')
      }
    }
    const usage = {
      input_tokens: Math.max(1, total - read - creation),
      cache_creation_input_tokens: creation,
      cache_read_input_tokens: read,
    }
    return { usage, commit }
  }

  /** Forgets everything (as if the TTL expired). */
  clear(): void {
    this.stored.clear()
  }
}

/** Approximate, deterministic token count: a quarter of the characters, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

interface FlatBlock {
  key: string
  breakpoint: boolean
}

/**
 * Flattens tools, system and messages into cache-order blocks. As the API does with tool search, a
 * tool sent with `defer_loading: true` is not part of the prompt; a `tool_reference` block in a
 * tool result stands for that tool's whole definition where it appears.
 */
export function flattenPrompt(body: Record<string, unknown>): FlatBlock[] {
  const out: FlatBlock[] = []
  const deferred = new Map<string, unknown>()
  for (const tool of asArray(body['tools'])) {
    if (isRecord(tool) && tool['defer_loading'] === true) deferred.set(String(tool['name']), tool)
    else out.push(flat('tool', tool))
  }
  const system = body['system']
  if (typeof system === 'string') out.push({ key: `system:${JSON.stringify(system)}`, breakpoint: false })
  else for (const block of asArray(system)) out.push(flat('system', block))
  for (const message of asArray(body['messages'])) {
    if (!isRecord(message)) continue
    const role = String(message['role'])
    const content = message['content']
    if (typeof content === 'string') out.push({ key: `${role}:${JSON.stringify(content)}`, breakpoint: false })
    else for (const block of asArray(content)) out.push(flat(role, expandReferences(block, deferred)))
  }
  return out
}

/** A tool_result whose tool_reference blocks are replaced by the definitions they name. */
function expandReferences(block: unknown, deferred: Map<string, unknown>): unknown {
  if (!isRecord(block) || block['type'] !== 'tool_result' || !Array.isArray(block['content'])) return block
  const content = block['content'].map((part: unknown) => (isRecord(part) && part['type'] === 'tool_reference' ? { type: 'tool_definition', tool: deferred.get(String(part['tool_name'])) ?? null } : part))
  return { ...block, content }
}

function flat(prefix: string, block: unknown): FlatBlock {
  if (!isRecord(block)) return { key: `${prefix}:${JSON.stringify(block)}`, breakpoint: false }
  const { cache_control: cacheControl, ...rest } = block
  return { key: `${prefix}:${JSON.stringify(rest)}`, breakpoint: cacheControl != null }
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : []
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
