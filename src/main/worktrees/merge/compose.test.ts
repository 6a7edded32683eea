import { describe, expect, it } from 'vitest'
import { reviewChange } from '../../../shared/edit-review'
import { composeChanges } from './compose'
import { mergeFile } from './merge-file'

const FORK = 'a\nb\nc\nd\ne\nf\ng\n'

describe('composing changes that are apart', () => {
  it('gives what git merge-file gives for changes that do not touch, and refuses ones that do', async () => {
    const ours = FORK.replace('b\n', 'B\n')
    const theirs = FORK.replace('f\n', 'F\nF2\n').replace('d\n', '')
    const composed = composeChanges(FORK, [...reviewChange(FORK, ours).hunks, ...reviewChange(FORK, theirs).hunks])
    expect(composed).toBe('a\nB\nc\ne\nF\nF2\ng\n')
    expect(composed).toBe((await mergeFile(ours, FORK, theirs, { ours: 'o', base: 'b', theirs: 't' })).text)
    // The same change twice counts once; touching changes are git's to decide.
    expect(composeChanges(FORK, [...reviewChange(FORK, ours).hunks, ...reviewChange(FORK, ours).hunks])).toBe(ours)
    expect(composeChanges(FORK, [...reviewChange(FORK, ours).hunks, ...reviewChange(FORK, FORK.replace('c\n', 'C\n')).hunks])).toBeUndefined()
  })
})
