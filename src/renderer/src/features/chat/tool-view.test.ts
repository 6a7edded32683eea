import { describe, expect, it } from 'vitest'
import { fileChangeOf, resultLabel } from './tool-view'

describe('tool card views', () => {
  it('turns an edit result into diff lines with counts', () => {
    const change = fileChangeOf({ filePath: '/p/a.ts', before: 'a\nb\nc\n', after: 'a\nB\nc\nd\n' })
    expect(change).toMatchObject({ filePath: '/p/a.ts', added: 2, removed: 1, cut: 0 })
    expect(change?.lines.map((l) => `${l.kind}:${l.text}`)).toEqual(['hunk:@@ -1,3 +1,4 @@', 'ctx:a', 'del:b', 'add:B', 'ctx:c', 'add:d'])
    expect(fileChangeOf({ filePath: '/p/a.ts', lines: 3 })).toBeUndefined()
    expect(fileChangeOf(undefined)).toBeUndefined()
  })

  it('names results by tool', () => {
    expect(resultLabel('Bash', false)).toBe('Output')
    expect(resultLabel('Read', false)).toBe('File excerpt')
    expect(resultLabel('Read', true)).toBe('Error')
  })
})
