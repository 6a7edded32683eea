import { describe, expect, it } from 'vitest'
import { changedPaths, diffLineKind } from './changes'

describe('changedPaths', () => {
  it('marks changed files and the folders above them, inside the project only', () => {
    const change = (path: string) => ({ path, created: false, patch: '' })
    const { files, folders } = changedPaths(
      [change('/p/src/a/b.ts'), change('/p/README.md'), change('/elsewhere/x'), change('/pp/y')],
      '/p',
    )
    expect([...files]).toEqual(['src/a/b.ts', 'README.md'])
    expect([...folders]).toEqual(['src', 'src/a'])
  })
})

describe('diffLineKind', () => {
  it('tells headers, hunks, additions and removals apart', () => {
    expect(['--- a/x', '+++ b/x', '@@ -1 +1 @@', '+new', '-old', ' same', '==='].map(diffLineKind)).toEqual([
      'file',
      'file',
      'hunk',
      'add',
      'del',
      'context',
      'file',
    ])
  })
})
