import { describe, expect, it } from 'vitest'
import { createAcker } from './flow'

describe('createAcker', () => {
  it('sends one acknowledgement per microtask with the sum rendered', async () => {
    const sent: number[] = []
    const acker = createAcker((chars) => sent.push(chars))
    acker.rendered(10)
    acker.rendered(5)
    acker.rendered(0)
    expect(sent).toEqual([])
    await Promise.resolve()
    expect(sent).toEqual([15])
    acker.rendered(7)
    await Promise.resolve()
    expect(sent).toEqual([15, 7])
  })

  it('sends nothing when nothing was rendered', async () => {
    const sent: number[] = []
    createAcker((chars) => sent.push(chars)).rendered(0)
    await Promise.resolve()
    expect(sent).toEqual([])
  })
})
