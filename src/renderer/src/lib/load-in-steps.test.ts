import { describe, expect, it } from 'vitest'
import { loadInSteps } from './load-in-steps'

describe('loadInSteps', () => {
  it('starts each step after the one before has settled, a task later, and resolves with the last', async () => {
    const log: string[] = []
    const step = (name: string) => async () => {
      log.push(`start ${name}`)
      await Promise.resolve()
      log.push(`end ${name}`)
      return { name }
    }
    // A task queued before the load runs before the second step: each step waits for a new task.
    setTimeout(() => log.push('task'), 0)
    const last = await loadInSteps([step('a'), step('b'), step('c')])
    expect(last).toEqual({ name: 'c' })
    expect(log).toEqual(['start a', 'end a', 'task', 'start b', 'end b', 'start c', 'end c'])
  })

  it('rejects as the first failing step does, and starts no step after it', async () => {
    const started: string[] = []
    const failing = loadInSteps([
      async () => void started.push('a'),
      async () => {
        started.push('b')
        throw new Error('chunk b did not load')
      },
      async () => void started.push('c'),
    ])
    await expect(failing).rejects.toThrow('chunk b did not load')
    expect(started).toEqual(['a', 'b'])
  })
})
