import { describe, expect, it } from 'vitest'
import { expectPaired } from '../../../test/support/engine'
import type { Message } from '../services/model/types'
import { CollapseProjection } from './collapse'
import { mergeConsecutiveUsers } from './conversation'
import { CLEARED_PREFIX, microCompact } from './micro'
import { snip, SNIP_MARKER } from './snip'
import { messagesTokens } from './tokens'

/** A conversation of `rounds` tool rounds (tool, result size) after a first prompt, ending with tool results. */
function rounds(count: number, tool = (index: number) => (index % 2 === 0 ? 'Read' : 'Agent'), size = 2_000): Message[] {
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'The task: fix the build.' }] }]
  for (let index = 0; index < count; index++) {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `Step ${index}.` }, { type: 'tool_use', id: `toolu_${index}`, name: tool(index), input: { value: String(index) } }] })
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${index}`, content: `result ${index} `.repeat(size / 10) }] })
  }
  return messages
}

const resultText = (message: Message | undefined): string => JSON.stringify(message)

describe('snip', () => {
  it('keeps the first prompt and the newest messages, marks the cut, and keeps every tool_use with its result', () => {
    const messages = rounds(30)
    expect(snip(messages, 100, 20)).toBeUndefined()
    const snipped = snip(messages, 40, 20)!
    expect(snipped.messages.length).toBeLessThanOrEqual(20)
    expect(snipped.messages[0]!.role).toBe('user')
    expect(resultText(snipped.messages[0])).toContain('The task: fix the build.')
    expect(resultText(snipped.messages[0])).toContain(`${SNIP_MARKER} ${snipped.removed} earlier messages`)
    expect(snipped.messages[1]!.role).toBe('assistant')
    expect(snipped.messages.at(-1)).toBe(messages.at(-1))
    expectPaired(snipped.messages)
  })

  it('a second snip replaces the marker and counts every message removed so far', () => {
    const first = snip(rounds(30), 40, 20)!
    const grown = [...first.messages, ...rounds(30).slice(1)]
    const second = snip(grown, 40, 20)!
    const markers = JSON.stringify(second.messages[0]).split(SNIP_MARKER).length - 1
    expect(markers).toBe(1)
    expect(JSON.stringify(second.messages[0])).toContain(`${first.removed + second.removed} earlier messages`)
  })
})

describe('micro-compact', () => {
  it('clears older results of re-fetchable tools only, keeping the newest few, the blocks and their ids', () => {
    const messages = rounds(12)
    const micro = microCompact(messages, { keepRecent: 3, minChars: 100 })!
    // Read results are the even rounds: 6 of them, the newest 3 stay.
    expect(micro.cleared.map((entry) => entry.tool)).toEqual(['Read', 'Read', 'Read'])
    const contents = micro.messages.flatMap((message) => (message.role === 'user' && typeof message.content !== 'string' ? message.content.filter((block) => block.type === 'tool_result') : []))
    expect(contents).toHaveLength(12)
    const cleared = contents.filter((block) => typeof block.content === 'string' && block.content.startsWith(CLEARED_PREFIX))
    expect(cleared.map((block) => block.tool_use_id)).toEqual(['toolu_0', 'toolu_2', 'toolu_4'])
    // Agent results (odd rounds) are never cleared, however old.
    expect(JSON.stringify(micro.messages)).toContain('result 1 ')
    expectPaired(micro.messages)
    // Unchanged messages are the same objects (their estimates and cached bytes stay).
    expect(micro.messages[1]).toBe(messages[1])
    expect(messagesTokens(micro.messages)).toBeLessThan(messagesTokens(messages))
  })

  it('has nothing to do twice, or when the results are short', () => {
    const once = microCompact(rounds(12), { keepRecent: 3, minChars: 100 })!
    expect(microCompact(once.messages, { keepRecent: 3, minChars: 100 })).toBeUndefined()
    expect(microCompact(rounds(12, () => 'Read', 50), { keepRecent: 3, minChars: 100 })).toBeUndefined()
  })
})

describe('collapse (a read-time projection)', () => {
  const measure = (messages: readonly Message[]) => messagesTokens(messages)

  it('stubs the oldest results first, never the newest round, and sends the same bytes again until it must move', () => {
    const messages = rounds(20)
    const tokens = measure(messages)
    const levels = { collapseAt: tokens - 100, hardCollapseAt: tokens * 2, target: Math.floor(tokens * 0.6) }
    const projection = new CollapseProjection()
    const first = projection.project(messages, tokens, measure, levels)
    expect(first.advanced).toBe(true)
    expect(measure(first.send)).toBeLessThanOrEqual(levels.target)
    expect(first.send).toHaveLength(messages.length)
    expect(JSON.stringify(first.send[2])).toContain('[collapsed: Read result')
    expect(first.send.at(-1)).toBe(messages.at(-1))
    expect(first.send.at(-2)).toBe(messages.at(-2))
    expectPaired(first.send)
    // The session's own list is untouched.
    expect(JSON.stringify(messages[2])).not.toContain('collapsed')
    // A new round arrives: the collapsed prefix is byte-identical (the prompt cache still reads it).
    const grown = [...messages, ...rounds(1).slice(1).map((message) => message)]
    const second = projection.project(grown, measure(grown), measure, levels)
    expect(second.advanced).toBe(false)
    expect(JSON.stringify(second.send.slice(0, first.send.length - 2))).toBe(JSON.stringify(first.send.slice(0, first.send.length - 2)))
  })

  it('leaves old rounds out from the hard level, with one marker after the first prompt', () => {
    const messages = rounds(20)
    const tokens = measure(messages)
    const projection = new CollapseProjection()
    const { send } = projection.project(messages, tokens, measure, { collapseAt: 0, hardCollapseAt: 0, target: Math.floor(tokens * 0.02) })
    expect(send.length).toBeLessThan(messages.length)
    expect(JSON.stringify(send[0])).toContain('earlier messages are left out')
    expect(send[1]!.role).toBe('assistant')
    expectPaired(send)
  })
})

describe('mergeConsecutiveUsers', () => {
  it('joins a summary and the next prompt into one user turn, and leaves alternating lists alone', () => {
    const alternating = rounds(2)
    expect(mergeConsecutiveUsers(alternating)).toBe(alternating)
    const merged = mergeConsecutiveUsers([
      { role: 'user', content: [{ type: 'text', text: 'summary' }] },
      { role: 'user', content: 'next prompt' },
    ])
    expect(merged).toEqual([{ role: 'user', content: [{ type: 'text', text: 'summary' }, { type: 'text', text: 'next prompt' }] }])
  })
})
