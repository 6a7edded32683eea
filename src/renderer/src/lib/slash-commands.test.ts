import { describe, expect, it } from 'vitest'
import { commandBeingUsed, exactCommand, matchCommands, type SlashCommand } from './slash-commands'

const run = () => undefined
const commands: SlashCommand[] = [
  { name: 'clear', description: '', run },
  { name: 'plan', description: '', run },
  { name: 'accept-edits', description: '', run },
  { name: 'compact', description: '', takesArguments: true, run },
  { name: 'frontend:Review', description: '', takesArguments: true, custom: true, argumentHint: '<file>', run },
]

describe('slash-command matching', () => {
  it('lists every command for "/" and narrows as the name is typed', () => {
    expect(matchCommands('/', commands).map((c) => c.name)).toEqual(['clear', 'plan', 'accept-edits', 'compact', 'frontend:Review'])
    expect(matchCommands('/c', commands).map((c) => c.name)).toEqual(['clear', 'compact'])
    expect(matchCommands('/zz', commands)).toEqual([])
    expect(matchCommands('not a command', commands)).toEqual([])
    expect(matchCommands('/plan and more', commands)).toEqual([])
    // A space after the name: the arguments come next, the list closes.
    expect(matchCommands('/compact ', commands)).toEqual([])
  })

  it('finds the command the text names exactly, with arguments only for a command that takes them', () => {
    expect(exactCommand(' /plan ', commands)?.command.name).toBe('plan')
    expect(exactCommand('/PLAN', commands)?.command.name).toBe('plan')
    expect(exactCommand('/pla', commands)).toBeUndefined()
    // Words after a command that takes none: a prompt that starts with a slash, sent as it is.
    expect(exactCommand('/plan the release', commands)).toBeUndefined()
    expect(exactCommand('/compact keep the API notes\nand the plan', commands)).toEqual({ command: commands[3], args: 'keep the API notes\nand the plan' })
    expect(exactCommand('/compact', commands)).toEqual({ command: commands[3], args: '' })
  })

  it("completes custom names with folders' colons and any case", () => {
    expect(matchCommands('/frontend:r', commands).map((c) => c.name)).toEqual(['frontend:Review'])
    expect(exactCommand('/frontend:review src/a.ts', commands)).toEqual({ command: commands[4], args: 'src/a.ts' })
  })

  it('names the command whose arguments are being typed, for its hint', () => {
    expect(commandBeingUsed('/frontend:Review ', commands)?.name).toBe('frontend:Review')
    expect(commandBeingUsed('/compact keep', commands)?.name).toBe('compact')
    // A command without arguments, a name still being typed, a prompt: no hint.
    expect(commandBeingUsed('/plan ', commands)).toBeUndefined()
    expect(commandBeingUsed('/compact', commands)).toBeUndefined()
    expect(commandBeingUsed('fix /compact ', commands)).toBeUndefined()
  })
})
