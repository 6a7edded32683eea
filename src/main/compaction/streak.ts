import type { Message, ToolResultBlock, UserBlock } from '../services/model/types'
import { hasToolResults, resultContentText } from './conversation'
import { CLEARED_PREFIX, clearedResult, clearedTokens } from './micro'
import { estimateTextTokens } from './tokens'

/**
 * Tools whose large results a streak may stub: reading them again gives the same thing back and
 * changes nothing (not Bash: a command run again may do something, or say something else).
 */
export const STREAK_TOOLS: ReadonlySet<string> = new Set(['Read', 'Grep', 'Glob'])

/** What the streak projection sends, and whether the request should keep its newest round out of the cache. */
export interface StreakProjection {
  /** The messages to send (the same array when nothing was stubbed). */
  send: Message[]
  /** Results stubbed in this projection. */
  stubbed: number
  /**
   * The newest message is a round of large results that follows another such round: it is sent
   * once and, if the next round is large too, stubbed at the next request. Its cache write (1.25×
   * input) would then never be read, so the request's last breakpoint goes before it (1×).
   */
  deferNewest: boolean
}

/**
 * The streak projection (issue 23's forty-file task, and any scan through large files): of two
 * consecutive tool rounds that each bring a large result of a re-read-able tool, the older
 * round's large results are sent as the placeholder micro-compaction leaves ("call Read again if
 * you need it"). Stateless — decided on the whole conversation each request, so a stub once sent
 * is sent the same way from then on — and a projection: the session keeps every message.
 *
 * The manager applies it only once the session is under token pressure (below the mark nothing
 * earlier is touched): past it, a large result (≥ `largeTokens`) re-read on every later request
 * costs 0.1× input each time, and a scan of many such files would climb back to the mark and pay
 * for a bulk clearing again and again; stubbing what the next large read superseded keeps the
 * request small with one rewrite, when pressure is first reached. The
 * model has answered the older round (it asked for the next file); a single large read followed
 * by edits, the parts of one file read one after the other, and small results are never stubbed
 * here.
 */
export function projectStreak(messages: Message[], options: { largeTokens: number; tools?: ReadonlySet<string> }): StreakProjection {
  const tools = options.tools ?? STREAK_TOOLS
  const calls = callsById(messages)
  /** The large results of a round (a placeholder micro-compaction left of a large one counts, as `cleared`). */
  const largeAt = (index: number): Array<{ at: number; cleared: boolean; tool: string; target: string }> => {
    const message = messages[index]
    if (!message || !hasToolResults(message)) return []
    return (message.content as UserBlock[]).flatMap((block, at) => {
      if (block.type !== 'tool_result') return []
      const call = calls.get(block.tool_use_id)
      if (!call || !tools.has(call.name)) return []
      const text = resultContentText(block.content)
      const cleared = text.startsWith(CLEARED_PREFIX)
      const tokens = cleared ? (clearedTokens(text) ?? 0) : estimateTextTokens(text)
      return tokens >= options.largeTokens ? [{ at, cleared, tool: call.name, target: call.target }] : []
    })
  }
  /**
   * Whether the round at `index + 2` supersedes the one at `index`: both bring large results, and
   * the newer is not another part of a file the older one read (a file read in parts is read
   * to be seen whole).
   */
  const superseded = (index: number): boolean => {
    const older = largeAt(index)
    const newer = largeAt(index + 2)
    if (older.length === 0 || newer.length === 0) return false
    const parts = new Set(older.flatMap((result) => (result.tool === 'Read' ? [result.target] : [])))
    return !newer.some((result) => result.tool === 'Read' && parts.has(result.target))
  }
  const changed = new Map<number, UserBlock[]>()
  let stubbed = 0
  for (let index = 0; index < messages.length; index++) {
    if (!superseded(index)) continue
    const large = largeAt(index).filter((result) => !result.cleared)
    if (large.length === 0) continue
    const blocks = [...(messages[index]!.content as UserBlock[])]
    for (const { at, tool } of large) {
      blocks[at] = { ...(blocks[at] as ToolResultBlock), content: clearedResult(blocks[at] as ToolResultBlock, tool).content }
      stubbed++
    }
    changed.set(index, blocks)
  }
  // The newest round is kept out of the cache when it superseded the one before (the pattern
  // goes on: the next round will supersede it in turn).
  const last = messages.length - 1
  const deferNewest = last >= 2 && superseded(last - 2)
  if (changed.size === 0) return { send: messages, stubbed, deferNewest }
  return { send: messages.map((message, index) => (changed.has(index) ? { role: 'user', content: changed.get(index)! } : message)), stubbed, deferNewest }
}

/** Each tool call's name and what it is about (a Read's file), by tool_use id. */
function callsById(messages: readonly Message[]): Map<string, { name: string; target: string }> {
  const calls = new Map<string, { name: string; target: string }>()
  for (const message of messages) {
    if (message.role !== 'assistant') continue
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue
      const path = typeof block.input === 'object' && block.input !== null ? (block.input as { file_path?: unknown }).file_path : undefined
      calls.set(block.id, { name: block.name, target: typeof path === 'string' ? path : '' })
    }
  }
  return calls
}
