import { describe, expect, it } from 'vitest'
import { loadDraft, saveDraft } from './drafts'

describe('drafts', () => {
  it('keeps drafts per conversation and forgets empty ones', () => {
    saveDraft('p:s1', 'half a thought')
    saveDraft('p:s2', '')
    expect(loadDraft('p:s1')).toBe('half a thought')
    expect(loadDraft('p:s2')).toBe('')
    saveDraft('p:s1', '')
    expect(loadDraft('p:s1')).toBe('')
  })
})
