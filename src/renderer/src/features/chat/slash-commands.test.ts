import { describe, expect, it } from 'vitest'
import { exactCommand, loadDraft, matchCommands, saveDraft } from './slash-commands'

describe('slash commands', () => {
  it('lists every command for "/" and narrows as the name is typed', () => {
    expect(matchCommands('/').map((c) => c.name)).toEqual(['clear', 'plan', 'accept-edits', 'ask'])
    expect(matchCommands('/a').map((c) => c.name)).toEqual(['accept-edits', 'ask'])
    expect(matchCommands('/zz')).toEqual([])
    expect(matchCommands('not a command')).toEqual([])
    expect(matchCommands('/plan and more')).toEqual([])
  })

  it('finds the command the text names exactly', () => {
    expect(exactCommand(' /plan ')?.name).toBe('plan')
    expect(exactCommand('/pla')).toBeUndefined()
  })

  it('keeps drafts per conversation and forgets empty ones', () => {
    saveDraft('p:s1', 'half a thought')
    saveDraft('p:s2', '')
    expect(loadDraft('p:s1')).toBe('half a thought')
    expect(loadDraft('p:s2')).toBe('')
    saveDraft('p:s1', '')
    expect(loadDraft('p:s1')).toBe('')
  })
})
