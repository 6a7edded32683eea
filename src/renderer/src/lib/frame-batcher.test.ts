import { describe, expect, it } from 'vitest'
import { createFrameBatcher, type Scheduler } from './frame-batcher'

/** A hand-cranked scheduler: `tick()` plays the role of the next animation frame. */
function manual(): { schedule: Scheduler; tick: () => void; scheduled: () => number } {
  let callbacks: Array<() => void> = []
  let count = 0
  return {
    schedule: (callback) => {
      count++
      callbacks.push(callback)
      return () => (callbacks = callbacks.filter((entry) => entry !== callback))
    },
    tick: () => {
      const due = callbacks
      callbacks = []
      for (const callback of due) callback()
    },
    scheduled: () => count,
  }
}

describe('createFrameBatcher', () => {
  it('delivers everything pushed within a frame as one batch, in order', () => {
    const clock = manual()
    const batches: number[][] = []
    const batcher = createFrameBatcher<number>((items) => batches.push(items), clock.schedule)
    batcher.push(1)
    batcher.push(2)
    batcher.push(3)
    expect(batches).toEqual([])
    expect(clock.scheduled()).toBe(1)
    clock.tick()
    batcher.push(4)
    clock.tick()
    expect(batches).toEqual([[1, 2, 3], [4]])
  })

  it('flushes on demand and clears without delivering', () => {
    const clock = manual()
    const batches: string[][] = []
    const batcher = createFrameBatcher<string>((items) => batches.push(items), clock.schedule)
    batcher.push('a')
    batcher.flush()
    batcher.push('b')
    batcher.clear()
    clock.tick()
    expect(batches).toEqual([['a']])
  })
})
