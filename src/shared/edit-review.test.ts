import { describe, expect, it } from 'vitest'
import { applyDecisions, describeHunk, describeOutcome, reviewChange } from './edit-review'

const before = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', ''].join('\n')
const after = ['one', 'TWO', 'three', 'four', 'five', 'six', 'SEVEN', 'eight', ''].join('\n')

describe('reviewChange', () => {
  it('splits a change into hunks with line numbers of both sides', () => {
    const review = reviewChange(before, after)
    expect(review.hunks).toHaveLength(2)
    expect(review.hunks[0]).toMatchObject({ beforeLine: 2, beforeCount: 1, afterLine: 2, afterCount: 1, removed: 'two\n', added: 'TWO\n' })
    expect(review.hunks[1]).toMatchObject({ beforeLine: 7, beforeCount: 1, afterLine: 7, afterCount: 2, added: 'SEVEN\neight\n' })
    expect(describeHunk(review.hunks[1]!)).toBe('hunk 2 (line 7)')
  })

  it('rebuilds either side exactly, and any mix of hunks', () => {
    const review = reviewChange(before, after)
    expect(applyDecisions(review, ['accepted', 'accepted'])).toBe(after)
    expect(applyDecisions(review, [])).toBe(before)
    expect(applyDecisions(review, ['accepted', 'rejected'])).toBe(before.replace('two', 'TWO'))
  })

  it('handles pure insertions, deletions and a missing final newline', () => {
    const review = reviewChange('a\nb', 'a\nx\nb\nc')
    expect(applyDecisions(review, review.hunks.map(() => 'accepted'))).toBe('a\nx\nb\nc')
    expect(applyDecisions(review, [])).toBe('a\nb')
    const insertion = reviewChange('a\nb\n', 'a\nnew\nb\n').hunks[0]!
    expect(describeHunk(insertion)).toBe('hunk 1 (insertion after line 1)')
    const empty = reviewChange('', 'hello\n')
    expect(empty.hunks).toHaveLength(1)
    expect(applyDecisions(empty, ['accepted'])).toBe('hello\n')
  })
})

describe('describeOutcome', () => {
  it('says nothing more when the proposal landed as is, and calls an untouched file a rejection', () => {
    expect(describeOutcome('/p/f.txt', before, after, after, ['accepted', 'accepted'])).toEqual({ kind: 'as_proposed' })
    expect(describeOutcome('/p/f.txt', before, after, before, ['rejected', 'rejected'])).toEqual({ kind: 'rejected' })
  })

  it('names the applied and rejected hunks of a partial approval', () => {
    const final = before.replace('two', 'TWO')
    const outcome = describeOutcome('/p/f.txt', before, after, final, ['accepted', 'rejected'])
    expect(outcome).toMatchObject({ kind: 'partial', applied: [0], rejected: [1] })
    if (outcome.kind !== 'partial') throw new Error('expected partial')
    expect(outcome.note).toContain('Applied (1 of 2 hunks): hunk 1 (line 2)')
    expect(outcome.note).toContain('Rejected and not applied: hunk 2 (line 7)')
    expect(outcome.note).toContain('-SEVEN')
  })

  it('quotes the user\'s own edits as a unified diff against the proposal', () => {
    const final = after.replace('TWO', 'Two (edited)')
    const outcome = describeOutcome('/p/f.txt', before, after, final, ['accepted', 'accepted'])
    expect(outcome.kind).toBe('user_changes')
    if (outcome.kind !== 'user_changes') throw new Error('expected user_changes')
    expect(outcome.note).toContain('-TWO')
    expect(outcome.note).toContain('+Two (edited)')
    expect(outcome.note).toContain('```diff')
  })
})
