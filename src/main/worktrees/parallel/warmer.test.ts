import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RunWarmer, WARM_AFTER_MS } from './warmer'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('RunWarmer', () => {
  it('reads a run once a moment after its worktrees moved, once for several moves together', () => {
    const read: string[] = []
    const warmer = new RunWarmer(async (runId) => void read.push(runId))
    warmer.moved('run_1')
    vi.advanceTimersByTime(WARM_AFTER_MS / 2)
    warmer.moved('run_1')
    warmer.moved('run_2')
    vi.advanceTimersByTime(WARM_AFTER_MS - 1)
    expect(read).toEqual([])
    vi.advanceTimersByTime(1)
    expect(read.sort()).toEqual(['run_1', 'run_2'])
  })

  it('skips the read when someone read the run after it moved, not when the read came before', () => {
    const read: string[] = []
    const warmer = new RunWarmer(async (runId) => void read.push(runId))
    warmer.reading('run_1')
    vi.advanceTimersByTime(5)
    warmer.moved('run_1')
    warmer.moved('run_2')
    vi.advanceTimersByTime(5)
    warmer.reading('run_2')
    vi.advanceTimersByTime(WARM_AFTER_MS)
    expect(read).toEqual(['run_1'])
  })

  it('a read that fails is let go; dispose drops what is pending', async () => {
    const read: string[] = []
    const warmer = new RunWarmer(async (runId) => {
      read.push(runId)
      throw new Error('gone')
    })
    warmer.moved('run_1')
    vi.advanceTimersByTime(WARM_AFTER_MS)
    await vi.runAllTimersAsync()
    warmer.moved('run_2')
    warmer.dispose()
    vi.advanceTimersByTime(WARM_AFTER_MS)
    expect(read).toEqual(['run_1'])
  })
})
