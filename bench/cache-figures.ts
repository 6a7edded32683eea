import { createHash } from 'node:crypto'
import type { RecordedRequest } from '../test/model-server'
import { estimateTokens, flattenPrompt } from '../test/model-server/cache-sim'

/** Prompt-cache reuse over a run, from the recorded request bodies. */
export interface CacheFigures {
  /** Prompt tokens (estimated) that an earlier request had already sent, as a prefix. */
  alreadySent: number
  /** Of those, the tokens read at a breakpoint an earlier request had set (what the cache can really serve). */
  exactHits: number
  /** `exactHits / alreadySent`, in percent. */
  exactShare: number
  /** Cache reads and all input tokens, as the server's simulation counted them. */
  read: number
  all: number
  readShare: number
}

/**
 * Reuse computed from the recorded bodies, independent of the server's own simulation: for each
 * request, the longest prefix an earlier request sent, and the longest prefix ending at an
 * earlier request's breakpoint.
 */
export function cacheFigures(requests: readonly RecordedRequest[]): CacheFigures {
  const earlierPrefixes = new Set<string>()
  const earlierBreakpoints = new Set<string>()
  let alreadySent = 0
  let exactHits = 0
  for (const request of requests) {
    let hash = ''
    let tokens = 0
    let sentBefore = 0
    let hit = 0
    const prefixes: string[] = []
    const breakpoints: string[] = []
    for (const block of flattenPrompt(request.body)) {
      hash = createHash('sha256').update(hash).update(block.key).digest('hex')
      tokens += estimateTokens(block.key)
      if (earlierPrefixes.has(hash)) sentBefore = tokens
      if (earlierBreakpoints.has(hash)) hit = tokens
      prefixes.push(hash)
      if (block.breakpoint) breakpoints.push(hash)
    }
    alreadySent += sentBefore
    exactHits += hit
    for (const prefix of prefixes) earlierPrefixes.add(prefix)
    for (const breakpoint of breakpoints) earlierBreakpoints.add(breakpoint)
  }
  const usage = requests.map((request) => request.simulatedUsage)
  const read = usage.reduce((sum, u) => sum + u.cache_read_input_tokens, 0)
  const all = usage.reduce((sum, u) => sum + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.input_tokens, 0)
  return { alreadySent, exactHits, exactShare: alreadySent === 0 ? 100 : (exactHits / alreadySent) * 100, read, all, readShare: all === 0 ? 0 : (read / all) * 100 }
}
