import { describe, expect, it } from 'vitest'
import type { PreviewFile } from '../../../../shared/ipc/contract'
import { initialChoices, restoreRequest, reviewOf } from './choices'

const files: PreviewFile[] = [
  { path: 'a.txt', change: 'restore', current: 'one\nTWO\nthree\nFOUR\n', target: 'one\ntwo\nthree\nfour\n', conflict: false },
  { path: 'ext.txt', change: 'restore', current: 'user\n', target: 'agent\n', conflict: true },
  { path: 'new.bin', change: 'delete', conflict: false },
]

describe('rewind preview choices', () => {
  it('restores every file but the conflicts by default', () => {
    expect(restoreRequest(files, initialChoices(files))).toEqual({ paths: ['a.txt', 'new.bin'], overwrite: [], contents: {} })
  })

  it('writes the file now with only the restored hunks when one is kept, and overwrites a conflict only when chosen', () => {
    const choices = { chosen: { 'a.txt': true, 'ext.txt': true, 'new.bin': false }, decisions: { 'a.txt': [undefined, 'rejected' as const] } }
    expect(reviewOf(files[0]!)?.hunks).toHaveLength(2)
    expect(restoreRequest(files, choices)).toEqual({ paths: ['a.txt', 'ext.txt'], overwrite: ['ext.txt'], contents: { 'a.txt': 'one\ntwo\nthree\nFOUR\n' } })
  })

  it('leaves a file alone when every hunk is kept', () => {
    const choices = { chosen: { 'a.txt': true }, decisions: { 'a.txt': ['rejected' as const, 'rejected' as const] } }
    expect(restoreRequest(files, choices)).toEqual({ paths: [], overwrite: [], contents: {} })
  })
})
