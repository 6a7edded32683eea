import { describe, expect, it } from 'vitest'
import { abortableSleep } from './sleep'

describe('abortableSleep', () => {
  it('waits, and wakes at once (without rejecting) when the signal aborts', async () => {
    const started = performance.now()
    await abortableSleep(30, new AbortController().signal)
    expect(performance.now() - started).toBeGreaterThanOrEqual(25)

    const controller = new AbortController()
    const waiting = abortableSleep(60_000, controller.signal)
    controller.abort()
    await expect(waiting).resolves.toBeUndefined()
    await expect(abortableSleep(60_000, controller.signal)).resolves.toBeUndefined()
  })
})
