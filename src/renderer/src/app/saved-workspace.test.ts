import { describe, expect, it } from 'vitest'
import { readSavedWorkspace } from './saved-workspace'

const storage = (text: string | null) => ({ getItem: () => text })

describe('the workspace a reload brings back', () => {
  it('reads what was saved', () => {
    const saved = { projects: ['/p', '/q'], current: '/q', sessions: { '/p': 's1', '/q': null }, terminals: { '/p': { shells: [{ title: 'Terminal 1', ptyId: 'pty-1' }, { title: 'Terminal 2' }], active: 'Terminal 2' } } }
    expect(readSavedWorkspace(storage(JSON.stringify(saved)))).toEqual(saved)
  })

  it('restores nothing from what does not read as a workspace', () => {
    for (const text of [null, '', '{', '[]', '{"projects":"/p"}', JSON.stringify({ projects: ['/p'], current: 3, sessions: {}, terminals: {} }), JSON.stringify({ projects: ['/p'], current: null, sessions: {}, terminals: { '/p': { shells: [{ title: 1 }] } } })]) {
      expect(readSavedWorkspace(storage(text)), String(text)).toBeNull()
    }
  })
})
