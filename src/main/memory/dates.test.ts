import { describe, expect, it } from 'vitest'
import { absoluteDates } from './dates'

// Thursday 5 March 2026.
const today = new Date(2026, 2, 5, 15)

describe('absoluteDates', () => {
  it.each([
    ['The freeze starts tomorrow.', 'The freeze starts 2026-03-06.'],
    ['Released yesterday, reviewed today', 'Released 2026-03-04, reviewed 2026-03-05'],
    ['Demo next Monday', 'Demo Monday 2026-03-09'],
    ['Demo on Friday', 'Demo on Friday 2026-03-06'],
    ['Shipped last Thursday', 'Shipped Thursday 2026-02-26'],
    ['Due in 3 days', 'Due by 2026-03-08'],
    ['Due within 2 weeks', 'Due by 2026-03-19'],
    ['Broke 10 days ago', 'Broke on 2026-02-23'],
    ['Busy next week', 'Busy the week of 2026-03-09'],
    ['Busy this week', 'Busy the week of 2026-03-02'],
    ['Back the day after tomorrow', 'Back 2026-03-07'],
    ['Meeting on 2026-04-01 stays as it is', 'Meeting on 2026-04-01 stays as it is'],
    ['Todayish and tomorrows are words', 'Todayish and tomorrows are words'],
  ])('%s', (input, output) => {
    expect(absoluteDates(input, today)).toBe(output)
  })
})
