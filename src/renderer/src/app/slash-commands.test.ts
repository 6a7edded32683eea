import { useExtensionsSection } from '../features/extensions/section'
import { afterEach, describe, expect, it } from 'vitest'
import type { PermissionModeName } from '../../../shared/ipc/contract'
import type { SlashContext } from '../lib/slash-commands'
import { SLASH_COMMANDS } from './slash-commands'

/** A conversation that records what the commands did to it, in a build with these views (by default all of them). */
function conversation({ views = ['settings', 'extensions', 'context', 'agents', 'memory'] }: { views?: string[] } = {}) {
  const done: string[] = []
  const said: string[] = []
  const shown: string[] = []
  const chat: SlashContext = {
    showView: (id) => views.includes(id) && shown.push(id) > 0,
    newConversation: () => void done.push('new'),
    setMode: (mode: PermissionModeName) => void done.push(mode),
    send: (text) => void done.push(`send ${text}`),
    say: (text) => void said.push(text),
    setModel: async (model) => {
      done.push(`model ${model ?? 'default'}`)
      return `${model ?? 'default'} answers`
    },
    setReasoning: async (change) => {
      done.push(`think ${JSON.stringify(change)}`)
      return 'switched'
    },
    currentModel: () => 'claude-sonnet-4-5',
    compact: (instructions) => void done.push(`compact ${instructions}`),
    rewind: () => done.push('rewind') > 0,
    commands: SLASH_COMMANDS,
  }
  return { chat, done, said, shown }
}

const command = (name: string) => {
  const found = SLASH_COMMANDS.find((candidate) => candidate.name === name)
  if (!found) throw new Error(`no /${name}`)
  return found
}

// Node has no animation frames; the focus after /permissions waits for one.
globalThis.requestAnimationFrame ??= () => 0

afterEach(() => useExtensionsSection.setState({ section: 'mcp' }))

describe('the slash-command registry', () => {
  it("has Claude Code's built-ins and the mode switches, unique lower-case names, each described", () => {
    const names = SLASH_COMMANDS.map((entry) => entry.name)
    expect(names).toEqual(['clear', 'compact', 'model', 'think', 'permissions', 'memory', 'agents', 'team', 'mcp', 'hooks', 'context', 'plan', 'accept-edits', 'ask', 'auto', 'auto-decisions', 'tasks', 'todos', 'rewind', 'checkpoint', 'undo', 'loop', 'parallel', 'help'])
    expect(new Set(names).size).toBe(names.length)
    for (const entry of SLASH_COMMANDS) {
      expect(entry.name).toMatch(/^[a-z][a-z0-9-]*$/)
      expect(entry.description.length).toBeGreaterThan(10)
      expect(entry.custom).toBeUndefined()
    }
  })

  it('runs the conversation commands against the conversation they were typed in', async () => {
    const { chat, done, said } = conversation()
    for (const name of ['clear', 'plan', 'accept-edits', 'ask']) command(name).run(chat, '')
    command('compact').run(chat, 'keep the API notes')
    command('model').run(chat, 'opus')
    command('model').run(chat, 'default')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(done).toEqual(['new', 'plan', 'acceptEdits', 'default', 'compact keep the API notes', 'model opus', 'model default'])
    expect(said).toEqual(['opus answers', 'default answers'])
  })

  it('/rewind and its aliases /checkpoint and /undo open the rewind picker, or say why there is nothing to rewind', () => {
    const { chat, done, said } = conversation()
    for (const name of ['rewind', 'checkpoint', 'undo']) command(name).run(chat, '')
    expect(done).toEqual(['rewind', 'rewind', 'rewind'])
    expect(said).toEqual([])
    const fresh = conversation()
    command('undo').run({ ...fresh.chat, rewind: () => false }, '')
    expect(fresh.said).toEqual([expect.stringContaining('Nothing to rewind yet')])
  })

  it('/think switches thinking or sets the effort, and says how without an argument', async () => {
    const { chat, done, said } = conversation()
    command('think').run(chat, 'off')
    command('think').run(chat, 'xhigh')
    command('think').run(chat, '')
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(done).toEqual(['think {"thinking":false}', 'think {"effort":"xhigh"}'])
    expect(said.some((line) => line.includes('/think on or /think off'))).toBe(true)
  })

  it('/model without arguments names the current model and how to switch', () => {
    const { chat, said } = conversation()
    command('model').run(chat, '')
    expect(said[0]).toMatch(/claude-sonnet-4-5.*\/model <id>/)
  })

  it('/mcp and /hooks open the Extensions view at their section; /permissions opens Settings', () => {
    const { chat, said, shown } = conversation()
    command('hooks').run(chat, '')
    expect(useExtensionsSection.getState().section).toBe('hooks')
    command('mcp').run(chat, '')
    expect(useExtensionsSection.getState().section).toBe('mcp')
    command('permissions').run(chat, '')
    expect(shown).toEqual(['extensions', 'extensions', 'settings'])
    expect(said).toEqual([])
  })

  it('a command whose view this build lacks says so instead of failing; /memory, /agents and /context open their views', () => {
    const { chat, said, shown } = conversation({ views: ['context', 'agents', 'memory'] })
    for (const name of ['memory', 'agents', 'context']) command(name).run(chat, '')
    expect(shown).toEqual(['memory', 'agents', 'context'])
    expect(said).toEqual([])
    const lacking = conversation({ views: [] })
    command('memory').run(lacking.chat, '')
    expect(lacking.said).toEqual(['The memory view is not part of this build yet.'])
  })

  it('/team asks the agent to create the team and opens the Agents view; without a name it says how', () => {
    const { chat, done, said, shown } = conversation()
    command('team').run(chat, 'crew review the parser')
    expect(done).toEqual(['send Create an agent team named "crew" with TeamCreate, then start the teammates it needs with the Agent tool (each with a name) to: review the parser.'])
    expect(shown).toEqual(['agents'])
    command('team').run(chat, '')
    expect(said[0]).toMatch(/^\/team <name>/)
  })

  it('/help lists every command with its arguments, built-ins apart from custom ones', () => {
    const { chat, said } = conversation()
    const custom = { name: 'review', description: 'Review a file', argumentHint: '<file>', origin: 'project command', custom: true, takesArguments: true, run: () => undefined }
    command('help').run({ ...chat, commands: [...SLASH_COMMANDS, custom] }, '')
    const lines = said[0]?.split('\n') ?? []
    expect(lines).toContain('/compact [instructions] — Summarize the conversation to free context (optional: what to keep in detail)')
    expect(lines.indexOf("This project's commands (expanded, then sent to the model):")).toBeGreaterThan(lines.indexOf('/help — List the commands'))
    expect(lines.at(-1)).toBe('/review <file> — Review a file (project command)')
  })

  it('/loop asks the model to schedule the prompt with CronCreate at the interval and run it now, and says how without a prompt', () => {
    const { chat, done, said } = conversation()
    command('loop').run(chat, '5m check the deploy')
    command('loop').run(chat, 'run the tests')
    command('loop').run(chat, '7m poll')
    command('loop').run(chat, '')
    command('loop').run(chat, '0m x')
    expect(done[0]).toContain('`cron`: "*/5 * * * *", `prompt`: the prompt below, verbatim, `recurring`: true')
    expect(done[0]).toMatch(/Then immediately execute the prompt now[^]*\nPrompt: check the deploy$/)
    expect(done[1]).toContain('"*/10 * * * *"')
    expect(done[2]).toContain('"*/6 * * * *"')
    expect(done[2]).toContain('7m does not divide its unit evenly; rounded to every 6 minutes.')
    expect(done).toHaveLength(3)
    expect(said).toEqual([expect.stringContaining('Usage: /loop [interval] <prompt>'), expect.stringContaining('0m is not an interval')])
  })
})
