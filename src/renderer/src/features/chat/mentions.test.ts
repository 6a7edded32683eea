import { describe, expect, it } from 'vitest'
import { droppedPaths, mentionsFor } from './mentions'

describe('dropped mentions', () => {
  it('reads every file URI of a drop, and located files first', () => {
    const data = { files: [], getData: (type: string) => (type === 'text/uri-list' ? 'file:///p/a.ts\r\n# comment\nfile:///p/my%20dir\nhttps://x' : '') }
    expect(droppedPaths(data, () => undefined)).toEqual(['/p/a.ts', '/p/my dir'])
  })

  it('makes project-relative mentions, quoting spaces and keeping outside paths absolute', () => {
    expect(mentionsFor(['/p/src/a.ts', '/p/my dir', '/elsewhere/b.md', '/p'], '/p/')).toBe('@src/a.ts @"my dir" @/elsewhere/b.md @.')
  })
})
