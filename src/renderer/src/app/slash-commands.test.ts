import { describe, expect, it } from 'vitest'
import type { PermissionModeName } from '../../../shared/ipc/contract'
import { useViews } from '../lib/views'
import { SLASH_COMMANDS } from './slash-commands'

describe('the slash-command registry', () => {
  it('has unique lower-case names, each described', () => {
    const names = SLASH_COMMANDS.map((command) => command.name)
    expect(names).toEqual(['clear', 'plan', 'accept-edits', 'ask', 'memory', 'tasks', 'todos', 'context', 'compact'])
    expect(new Set(names).size).toBe(names.length)
    for (const command of SLASH_COMMANDS) {
      expect(command.name).toMatch(/^[a-z][a-z0-9-]*$/)
      expect(command.description.length).toBeGreaterThan(10)
    }
  })

  it('runs each command against the conversation it was typed in', () => {
    const done: string[] = []
    const chat = { newConversation: () => done.push('new'), setMode: (mode: PermissionModeName) => done.push(mode), compact: (instructions: string) => done.push(`compact:${instructions}`) }
    // /tasks and /todos move focus in the page (the task panel's spec covers them).
    for (const command of SLASH_COMMANDS.filter((command) => !['tasks', 'todos'].includes(command.name))) command.run(chat, command.takesArguments ? 'keep the plan' : '')
    expect(done).toEqual(['new', 'plan', 'acceptEdits', 'default', 'compact:keep the plan'])
    // /context opens the context view by its id in the view registry.
    expect(useViews.getState().open).toBe('context')
    // /memory opens the memory browser the same way.
    SLASH_COMMANDS.find((command) => command.name === 'memory')!.run(chat, '')
    expect(useViews.getState().open).toBe('memory')
  })
})
