import { describe, expect, it } from 'vitest'
import { chatCommands, SLASH_PALETTE, type ChatActions } from './chat-commands'
import { SLASH_COMMANDS } from './slash-commands'

function recorded() {
  const calls: string[] = []
  const actions: ChatActions = {
    setMode: (mode) => void calls.push(`mode ${mode}`),
    setModel: (model) => void calls.push(`model ${model ?? 'default'}`),
    setThinking: (on) => void calls.push(`think ${on}`),
    compact: () => void calls.push('compact'),
    stop: () => void calls.push('stop'),
    rename: () => void calls.push('rename'),
    loop: () => void calls.push('loop'),
  }
  return { calls, actions }
}

describe('the palette lists every action', () => {
  it('has a palette command for every built-in slash command', () => {
    expect(Object.keys(SLASH_PALETTE).sort()).toEqual(SLASH_COMMANDS.map((command) => command.name).sort())
    const own = new Set(chatCommands(recorded().actions, true).map((command) => command.id))
    for (const [name, id] of Object.entries(SLASH_PALETTE)) {
      // The rest are the shell's own entries (views, extension sections, a new session) or the palette itself.
      expect(own.has(id) || /^(view|extensions|session|checkpoints)\.|^palette$/.test(id), `/${name} → ${id}`).toBe(true)
    }
  })

  it('offers mode, model, thinking, compact, stop and rename, each doing what it says', () => {
    const { calls, actions } = recorded()
    const commands = chatCommands(actions, true)
    for (const command of commands) command.run()
    expect(calls).toEqual(['mode plan', 'mode acceptEdits', 'mode default', 'mode auto', 'model sonnet', 'model opus', 'model haiku', 'model default', 'think true', 'think false', 'compact', 'stop', 'loop', 'rename'])
    expect(new Set(commands.map((command) => command.id)).size).toBe(commands.length)
    expect(chatCommands(actions, false).some((command) => command.id === 'session.rename')).toBe(false)
  })
})
