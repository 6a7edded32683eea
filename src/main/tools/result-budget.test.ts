import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { applyResultBudget, MAX_MESSAGE_RESULT_CHARS } from './result-budget'
import { makeTestWorld } from '../../../test/support/tools'

describe('applyResultBudget', () => {
  let world: ReturnType<typeof makeTestWorld>
  beforeEach(() => {
    world = makeTestWorld()
  })
  afterEach(() => world.cleanup())

  it('persists a result over 50,000 characters and keeps a preview with the path', async () => {
    const big = 'x'.repeat(60_000)
    const [small, persisted] = await applyResultBudget(
      [
        { toolUseId: 'toolu_a', result: { content: 'short' } },
        { toolUseId: 'toolu_b', result: { content: big, details: { keep: 1 } } },
      ],
      world.projectDataDir,
    )
    expect(small).toEqual({ content: 'short' })
    const path = join(world.projectDataDir, 'toolu_b.txt')
    expect(String(persisted!.content)).toContain(path)
    expect(String(persisted!.content).length).toBeLessThan(2_600)
    expect(persisted!.details).toEqual({ keep: 1 })
    expect(readFileSync(path, 'utf8')).toBe(big)
  })

  it('never persists an exempt (Read) result', async () => {
    const [read] = await applyResultBudget([{ toolUseId: 'toolu_r', maxResultChars: Infinity, result: { content: 'r'.repeat(90_000) } }], world.projectDataDir)
    expect(String(read!.content)).toHaveLength(90_000)
  })

  it('keeps one message under 200,000 characters, persisting the largest first', async () => {
    const sizes = [45_000, 49_000, 40_000, 48_000, 30_000]
    const results = await applyResultBudget(
      sizes.map((size, i) => ({ toolUseId: `t${i}`, result: { content: 'y'.repeat(size) } })),
      world.projectDataDir,
    )
    const lengths = results.map((r) => String(r.content).length)
    expect(lengths.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(MAX_MESSAGE_RESULT_CHARS)
    expect(lengths[1]).toBeLessThan(3_000) // the largest went first
    expect(lengths[4]).toBe(30_000) // the smallest stayed
  })
})
