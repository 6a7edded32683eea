import { describe, expect, it } from 'vitest'
import { applyDecisions, reviewChange } from '../../../../shared/edit-review'
import { decide, decideAll, editReply, tally } from './hunks'

const before = 'a\nb\nc\nd\n'
const after = 'A\nb\nc\nD\n'
const review = reviewChange(before, after)

describe('hunk decisions', () => {
  it('counts and updates choices without mutating them', () => {
    const none = decideAll(2, 'rejected').map(() => undefined)
    const one = decide(none, 1, 'rejected', 2)
    expect(none).toEqual([undefined, undefined])
    expect(tally(one, 2)).toEqual({ accepted: 0, rejected: 1, open: 1 })
    expect(tally(decideAll(2, 'accepted'), 2)).toEqual({ accepted: 2, rejected: 0, open: 0 })
  })

  it('replies with the exact text and the choices, open hunks counting as accepted', () => {
    const decisions = decide([], 1, 'rejected', 2)
    const final = applyDecisions(review, ['accepted', 'rejected'])
    expect(editReply('r1', review, before, final, decisions, '')).toEqual({ id: 'r1', decision: 'allow_once', finalContent: 'A\nb\nc\nd\n', hunks: ['accepted', 'rejected'] })
  })

  it('turns a file left as it was into a rejection with the reason', () => {
    expect(editReply('r1', review, before, before, decideAll(2, 'rejected'), ' use snake_case ')).toEqual({ id: 'r1', decision: 'reject', message: 'use snake_case' })
    expect(editReply('r1', review, before, before, [], '')).toMatchObject({ decision: 'reject', message: expect.stringContaining('rejected every hunk') })
  })
})
