import { describe, expect, it } from 'vitest'
import { matchRank, rankPaths } from './path-match'

describe('matchRank', () => {
  it('prefers the file name over the path, prefix over substring, substring over fuzzy', () => {
    expect(matchRank('src/app.ts', 'app.ts')).toBe(0)
    expect(matchRank('src/app.ts', 'ap')).toBe(1)
    expect(matchRank('src/app.ts', 'src/a')).toBe(2)
    expect(matchRank('src/my-app.ts', 'app')).toBe(3)
    expect(matchRank('src/main/x.ts', 'c/ma')).toBe(4)
    expect(matchRank('src/main/core.ts', 'smco')).toBe(5)
    expect(matchRank('src/main/core.ts', 'zz')).toBeUndefined()
  })

  it('ignores case and a folder’s trailing slash', () => {
    expect(matchRank('Docs/', 'docs')).toBe(0)
    expect(matchRank('README.md', 'read')).toBe(1)
  })
})

describe('rankPaths', () => {
  const paths = ['src/', 'src/main/', 'src/main/core.ts', 'src/renderer/core/', 'lib/score.ts', 'core.ts', 'docs/']

  it('orders best first (an exact name, then shallower within a rank), and caps the list', () => {
    expect(rankPaths(paths, 'core', 10)).toEqual(['src/renderer/core/', 'core.ts', 'src/main/core.ts', 'lib/score.ts'])
    expect(rankPaths(paths, 'core', 2)).toEqual(['src/renderer/core/', 'core.ts'])
  })

  it('lists the shallowest entries for an empty query', () => {
    expect(rankPaths(paths, '', 3)).toEqual(['src/', 'docs/', 'core.ts'])
  })
})
