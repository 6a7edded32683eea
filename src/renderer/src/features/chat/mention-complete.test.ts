import { describe, expect, it } from 'vitest'
import { insertMention, mentionAt, MentionSearch, type Timers } from './mention-complete'

describe('mentionAt', () => {
  it('finds the @ being typed at the caret', () => {
    expect(mentionAt('@', 1)).toEqual({ start: 0, query: '' })
    expect(mentionAt('look at @src/ma', 15)).toEqual({ start: 8, query: 'src/ma' })
    expect(mentionAt('a\n@RE and more', 5)).toEqual({ start: 2, query: 'RE' })
  })

  it('ignores e-mail addresses, finished words and text after the caret', () => {
    expect(mentionAt('me@example.com', 14)).toBeUndefined()
    expect(mentionAt('@src done', 9)).toBeUndefined()
    expect(mentionAt('no mention', 10)).toBeUndefined()
    expect(mentionAt('@"quoted', 8)).toBeUndefined()
  })
})

describe('insertMention', () => {
  it('replaces the typed word by the file and a space', () => {
    expect(insertMention('see @co', { start: 4, query: 'co' }, 'src/core.ts')).toEqual({ text: 'see @src/core.ts ', caret: 17 })
  })

  it('leaves the caret inside a folder so typing goes on there', () => {
    expect(insertMention('@sr', { start: 0, query: 'sr' }, 'src/')).toEqual({ text: '@src/', caret: 5 })
  })

  it('replaces the whole word when the caret is in its middle, keeping what follows', () => {
    expect(insertMention('@coXX and', { start: 0, query: 'co' }, 'core.ts')).toEqual({ text: '@core.ts and', caret: 9 })
  })

  it('quotes a path with spaces', () => {
    expect(insertMention('@my', { start: 0, query: 'my' }, 'my notes.md').text).toBe('@"my notes.md" ')
  })
})

/** Timers run by hand. */
function manualTimers(): Timers & { fire(): void; pending(): number } {
  const queue = new Map<number, () => void>()
  let next = 0
  return {
    set: (run) => (queue.set(++next, run), next),
    clear: (handle) => void queue.delete(handle as number),
    fire: () => {
      const runs = [...queue.values()]
      queue.clear()
      for (const run of runs) run()
    },
    pending: () => queue.size,
  }
}

describe('MentionSearch', () => {
  it('asks once typing pauses, for the last query only', async () => {
    const timers = manualTimers()
    const asked: string[] = []
    const shown: string[] = []
    const search = new MentionSearch(async (q) => (asked.push(q), [`${q}.ts`]), (q) => shown.push(q), 100, timers)
    search.request('c')
    search.request('co')
    search.request('cor')
    expect(timers.pending()).toBe(1)
    timers.fire()
    await Promise.resolve()
    await Promise.resolve()
    expect(asked).toEqual(['cor'])
    expect(shown).toEqual(['cor'])
  })

  it('drops a reply to an older query that arrives late', async () => {
    const timers = manualTimers()
    const replies: Array<(paths: string[]) => void> = []
    const shown: string[][] = []
    const search = new MentionSearch((_q) => new Promise((resolve) => replies.push(resolve)), (_q, paths) => shown.push(paths), 100, timers)
    search.request('a')
    timers.fire()
    search.request('ab')
    timers.fire()
    replies[1]?.(['ab.ts'])
    replies[0]?.(['a.ts'])
    await new Promise((resolve) => setImmediate(resolve))
    expect(shown).toEqual([['ab.ts']])
  })

  it('shows nothing after cancel, nor for a failed search', async () => {
    const timers = manualTimers()
    const shown: string[] = []
    const search = new MentionSearch(async () => undefined, (q) => shown.push(q), 100, timers)
    search.request('x')
    timers.fire()
    const late = new MentionSearch(async (q) => [q], (q) => shown.push(q), 100, timers)
    late.request('y')
    late.cancel()
    expect(timers.pending()).toBe(0)
    await new Promise((resolve) => setImmediate(resolve))
    expect(shown).toEqual([])
  })
})
