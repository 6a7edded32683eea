import { describe, expect, it } from 'vitest'
import { groupDigits } from './group-digits'

describe('groupDigits', () => {
  it('writes whole numbers as toLocaleString("en-US") does', () => {
    const values = [0, 7, -7, 999, 1000, -1000, 9_999, 10_000, 123_456, 999_999, 1_000_000, 200_000, 1_234_567_890, -98_765_432, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]
    for (let power = 1; power < 1e15; power *= 10) values.push(power, power - 1, power + 1)
    for (const value of values) expect(groupDigits(value)).toBe(value.toLocaleString('en-US'))
  })

  it('leaves fractions, huge numbers and non-numbers to toLocaleString("en-US")', () => {
    for (const value of [0.5, 1234.5678, -0.001, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY, -0]) expect(groupDigits(value)).toBe(value.toLocaleString('en-US'))
  })
})
