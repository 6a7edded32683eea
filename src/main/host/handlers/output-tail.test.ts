import { describe, expect, it } from 'vitest'
import { createOutputTail } from './output-tail'

describe('createOutputTail', () => {
  it('keeps everything while under the limit', () => {
    const tail = createOutputTail(100)
    tail.push('one\n')
    tail.push('')
    tail.push('two\n')
    expect(tail.text()).toBe('one\ntwo\n')
    tail.push('three')
    expect(tail.text()).toBe('one\ntwo\nthree')
  })

  it('keeps the last characters, from the first line start within them', () => {
    const tail = createOutputTail(10)
    for (const chunk of ['aaaa\n', 'bbbb\n', 'cccc\n', 'dd']) tail.push(chunk)
    // The last 10 are "bb\ncccc\ndd": what is kept starts after their first newline.
    expect(tail.text()).toBe('cccc\ndd')
  })

  it('cuts mid-line when no line starts near the front', () => {
    const tail = createOutputTail(5)
    tail.push('x'.repeat(8))
    tail.push('yz')
    expect(tail.text()).toBe('xxxyz')
  })

  it('gives the last lines of a long flood, at most the limit', () => {
    const tail = createOutputTail(1000)
    const chunk = `${'x'.repeat(99)}\n`
    for (let i = 0; i < 10_000; i++) tail.push(chunk)
    const text = tail.text()
    expect(text.length).toBeLessThanOrEqual(1000)
    expect(text.length).toBeGreaterThan(900)
    expect(text.endsWith(chunk)).toBe(true)
  })
})
