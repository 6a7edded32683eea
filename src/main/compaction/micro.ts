import type { Message, ToolResultBlock, UserBlock } from '../services/model/types'
import { resultContentText, toolNamesById } from './conversation'
import { estimateTextTokens } from './tokens'

/**
 * Tools whose results can be fetched again by calling the tool again, so an old result may be
 * replaced by a placeholder. An allowlist: anything else (Agent, task results, MCP tools, Skill)
 * keeps its results, since clearing them would lose what cannot be had back.
 */
export const REFETCHABLE_TOOLS: ReadonlySet<string> = new Set(['Read', 'Bash', 'Grep', 'Glob', 'WebFetch', 'WebSearch', 'Edit', 'Write', 'NotebookEdit'])

/** How a cleared result starts (so it is never cleared twice). */
export const CLEARED_PREFIX = '[Old tool result cleared'

/**
 * The placeholder of a cleared result, and its size in tokens. One wording for micro-compaction
 * and the streak projection (streak.ts): a result the projection stubbed and micro-compaction
 * later clears for real reads the same, so the request — and its cached prefix — do not change.
 */
export function clearedResult(block: ToolResultBlock, tool: string): { content: string; tokens: number } {
  const text = resultContentText(block.content)
  const tokens = estimateTextTokens(text) + (typeof block.content === 'string' ? 0 : block.content.filter((part) => part.type === 'image').length * 1_600)
  return { content: `${CLEARED_PREFIX} to save context (${tool}, about ${tokens.toLocaleString('en-US')} tokens). Call ${tool} again if you need it.]`, tokens }
}

/** The size a placeholder of {@link clearedResult} says its result had; `undefined` for any other text. */
export function clearedTokens(text: string): number | undefined {
  if (!text.startsWith(CLEARED_PREFIX)) return undefined
  const figure = /\(\S+, about ([\d,]+) tokens\)/.exec(text)?.[1]
  return figure ? Number(figure.replaceAll(',', '')) : undefined
}

/** What a micro-compaction did. */
export interface MicroCompacted {
  messages: Message[]
  /** Each cleared result's tool and estimated tokens. */
  cleared: Array<{ tool: string; tokens: number }>
}

/**
 * Micro-compact: older results of re-fetchable tools become a one-line placeholder; the newest
 * `keepRecent` re-fetchable results (and every result of the newest round), short results, and
 * every other tool's results stay as they are. The tool_result block itself stays (its id and error flag too), so every tool_use keeps its
 * tool_result. Oldest first, and with `saveAtLeast` only until that many tokens are cleared (the
 * low-water mark): what stays is the newest part, so the next clearing is many turns away.
 * Returns `undefined` when there is nothing to clear.
 */
export function microCompact(messages: readonly Message[], options: { keepRecent: number; minChars: number; refetchable?: ReadonlySet<string>; saveAtLeast?: number }): MicroCompacted | undefined {
  const refetchable = options.refetchable ?? REFETCHABLE_TOOLS
  const names = toolNamesById(messages)
  const positions: Array<{ message: number; block: number; tool: string }> = []
  messages.forEach((message, index) => {
    if (message.role !== 'user' || typeof message.content === 'string') return
    message.content.forEach((block, at) => {
      const tool = block.type === 'tool_result' ? names.get(block.tool_use_id) : undefined
      if (tool && refetchable.has(tool)) positions.push({ message: index, block: at, tool })
    })
  })
  // The newest round's results always stay (the model has not answered them yet).
  const newest = positions.at(-1)?.message
  const older = positions.slice(0, Math.max(0, positions.length - options.keepRecent)).filter((position) => position.message !== newest)
  const cleared: MicroCompacted['cleared'] = []
  const changed = new Map<number, UserBlock[]>()
  let saved = 0
  for (const position of older) {
    if (options.saveAtLeast !== undefined && saved >= options.saveAtLeast) break
    const message = messages[position.message] as Extract<Message, { role: 'user' }>
    const block = (message.content as UserBlock[])[position.block] as ToolResultBlock
    const text = resultContentText(block.content)
    if (text.startsWith(CLEARED_PREFIX) || (text.length < options.minChars && typeof block.content === 'string')) continue
    const { content, tokens } = clearedResult(block, position.tool)
    const blocks = changed.get(position.message) ?? [...(message.content as UserBlock[])]
    blocks[position.block] = { ...block, content }
    changed.set(position.message, blocks)
    cleared.push({ tool: position.tool, tokens })
    saved += tokens
  }
  if (cleared.length === 0) return undefined
  return { messages: messages.map((message, index) => (changed.has(index) ? { role: 'user', content: changed.get(index)! } : message)), cleared }
}
