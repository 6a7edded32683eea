import { describe, expect, it } from 'vitest'
import { filterCommands, score } from './match'

describe('palette matching', () => {
  const commands = [
    'New terminal',
    'New session',
    'Open settings',
    'Show session changes',
    'Find in terminal',
  ].map((title) => ({ title }))

  it('matches characters in order, case-insensitively', () => {
    expect(score('nt', 'New terminal')).not.toBeNull()
    expect(score('tn', 'New terminal')).not.toBeNull()
    expect(score('xyz', 'New terminal')).toBeNull()
    expect(score('', 'anything')).toBe(0)
  })

  it('ranks word starts and runs first', () => {
    expect(filterCommands(commands, 'new s').map((c) => c.title)[0]).toBe('New session')
    expect(filterCommands(commands, 'settings').map((c) => c.title)).toEqual(['Open settings'])
    expect(filterCommands(commands, '').map((c) => c.title)).toEqual(commands.map((c) => c.title))
  })
})
