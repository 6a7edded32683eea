import type { AssistantBlock, CacheControl, Message, TextBlock, UserBlock } from '../services/model/types'

const EPHEMERAL: CacheControl = { type: 'ephemeral' }

/** Breakpoints the messages may use: 4 in all, minus the two on the system prompt. */
export const MESSAGE_BREAKPOINTS = 2

/**
 * Places the message cache breakpoints of one request, on copies.
 *
 * One breakpoint goes on the last block of the last message, so the next request can reuse this
 * one's whole prefix. A second stays where the *previous* request put its last one — the last block
 * of the user message before the last — so this request reads exactly the prefix the previous one
 * wrote, whatever the API's look-back window. In an append-only conversation (tool rounds,
 * continuations, re-issues, a new prompt) that position is always the previous request's end.
 *
 * With `deferNewest` (the newest message will be stubbed at the next request, see
 * compaction/streak.ts) both move one round back: the last goes on the assistant message before
 * the newest, so the newest is sent as plain input (1×) rather than written to a cache (1.25×)
 * nothing would read; the second on the assistant message before that, where such a request
 * before it put its last one.
 *
 * String user contents become one text block everywhere, so every request serializes a message
 * the same way. Messages without a breakpoint are passed through untouched.
 */
export function withMessageBreakpoints(messages: readonly Message[], options: { deferNewest?: boolean } = {}): Message[] {
  const out = messages.map(asBlocks)
  const newest = out.length - 1
  if (newest < 0) return out
  const deferred = options.deferNewest === true && newest >= 1 && out[newest]!.role === 'user' && out[newest - 1]!.role === 'assistant'
  const last = deferred ? newest - 1 : newest
  mark(out, last)
  if (deferred) {
    if (last >= 2 && out[last - 2]!.role === 'assistant') mark(out, last - 2)
    return out
  }
  for (let index = last - 1; index >= 0; index--) {
    if (out[index]!.role === 'user') {
      mark(out, index)
      break
    }
  }
  return out
}

function asBlocks(message: Message): Message {
  if (message.role === 'user' && typeof message.content === 'string') {
    return { role: 'user', content: [{ type: 'text', text: message.content }] }
  }
  return message
}

function mark(messages: Message[], index: number): void {
  const message = messages[index]!
  if (message.role === 'user') {
    const content = [...(message.content as UserBlock[])]
    const at = content.length - 1
    if (at < 0) return
    content[at] = { ...content[at]!, cache_control: EPHEMERAL }
    messages[index] = { role: 'user', content }
    return
  }
  const content: AssistantBlock[] = [...message.content]
  for (let at = content.length - 1; at >= 0; at--) {
    const block = content[at]!
    // Thinking blocks cannot carry a breakpoint; the nearest text or tool_use before them can.
    if (block.type === 'text' || block.type === 'tool_use') {
      content[at] = { ...block, cache_control: EPHEMERAL }
      messages[index] = { role: 'assistant', content }
      return
    }
  }
}

/**
 * The same blocks or messages with every cache breakpoint given `ttl` (Claude Code's
 * `promptCacheTtl`), on copies; blocks without one are passed through. Applied to a whole request
 * at once, so no longer-lived breakpoint ever follows a shorter one (which the API refuses).
 */
export function withCacheTtl<T extends TextBlock | Message>(items: readonly T[], ttl: '5m' | '1h'): T[] {
  const stamp = <B extends { cache_control?: CacheControl }>(block: B): B => (block.cache_control ? { ...block, cache_control: { ...block.cache_control, ttl } } : block)
  return items.map((item) => {
    if (!('role' in item)) return stamp(item as { cache_control?: CacheControl }) as T
    if (typeof item.content === 'string') return item
    return { ...item, content: (item.content as Array<{ cache_control?: CacheControl }>).map(stamp) } as T
  })
}
