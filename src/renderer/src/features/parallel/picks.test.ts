import { describe, expect, it } from 'vitest'
import { countPicks, toPickInputs, withHunk, withPick, type Picks } from './picks'

describe('merge picks', () => {
  it('sends picked hunks by index and whole files as all; unpicked files are left out', () => {
    let picks: Picks = {}
    picks = withHunk(picks, 'a', 'x.txt', 1, 'accepted')
    picks = withHunk(picks, 'a', 'x.txt', 0, 'rejected')
    picks = withHunk(picks, 'b', 'x.txt', 0, 'rejected')
    picks = withPick(picks, 'b', 'img.png', 'all')
    expect(toPickInputs(picks)).toEqual([
      { sessionId: 'a', path: 'x.txt', hunks: [1] },
      { sessionId: 'b', path: 'img.png', hunks: 'all' },
    ])
    expect(countPicks(picks)).toBe(2)
    expect(toPickInputs(withPick(picks, 'b', 'img.png', undefined))).toEqual([{ sessionId: 'a', path: 'x.txt', hunks: [1] }])
  })
})
