import type { Message, ToolResultBlock, UserBlock } from '../services/model/types'
import { hasToolResults, resultContentText, toolNamesById } from './conversation'
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
 * Why below the pressure mark, where no other layer touches history: a large result (≥
 * `largeTokens`) re-read on every later request costs 0.1× input each time; a scan of many such
 * files would carry them all to the pressure mark and pay for reading them again and again. The
 * model has answered the older round (it asked for the next file); a single large read followed
 * by edits, or small results, are never stubbed here.
 */
export function projectStreak(messages: Message[], options: { largeTokens: number; tools?: ReadonlySet<string> }): StreakProjection {
  const tools = options.tools ?? STREAK_TOOLS
  const names = toolNamesById(messages)
  /** The large results of a round (a placeholder micro-compaction left of a large one counts, as `cleared`). */
  const largeAt = (index: number): Array<{ at: number; cleared: boolean }> => {
    const message = messages[index]
    if (!message || !hasToolResults(message)) return []
    return (message.content as UserBlock[]).flatMap((block, at) => {
      if (block.type !== 'tool_result') return []
      const tool = names.get(block.tool_use_id)
      if (!tool || !tools.has(tool)) return []
      const text = resultContentText(block.content)
      const cleared = text.startsWith(CLEARED_PREFIX)
      const tokens = cleared ? (clearedTokens(text) ?? 0) : estimateTextTokens(text)
      return tokens >= options.largeTokens ? [{ at, cleared }] : []
    })
  }
  const changed = new Map<number, UserBlock[]>()
  let stubbed = 0
  // From the newest round back: a round is stubbed when the round right after it (two messages on) is large too.
  for (let index = messages.length - 1; index >= 0; index--) {
    if (!hasToolResults(messages[index]!)) continue
    const large = largeAt(index).filter((result) => !result.cleared)
    if (large.length > 0 && largeAt(index + 2).length > 0) {
      const blocks = [...(messages[index]!.content as UserBlock[])]
      for (const { at } of large) {
        const block = blocks[at] as ToolResultBlock
        blocks[at] = { ...block, content: clearedResult(block, names.get(block.tool_use_id)!).content }
        stubbed++
      }
      changed.set(index, blocks)
    }
  }
  const last = messages.length - 1
  const deferNewest = last >= 2 && largeAt(last).length > 0 && largeAt(last - 2).length > 0
  if (changed.size === 0) return { send: messages, stubbed, deferNewest }
  return { send: messages.map((message, index) => (changed.has(index) ? { role: 'user', content: changed.get(index)! } : message)), stubbed, deferNewest }
}
