import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { nextOn, routeByPrompt, useAgentWorld, writeUserCommand } from '../../../test/support/agents'
import { decide } from '../governance/decide/decide'
import { SessionGrants } from '../governance/decide/session'
import { loadSettings } from '../governance/settings/load'
import { describeExplanation, describeOrigin } from '../governance/types'
import { readTool } from '../tools/read'

// The "why was I asked" line of an approval names the rule and its source, for every source Claude
// Code lists; a command's `allowed-tools` last exactly as long as the command's turn.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

const queueOf = (sessionId: string) => [...world.runtime.approvals.queues()].find((entry) => entry.sessionId === sessionId)!.queue

describe('the approval says which source asked', () => {
  it('names the user, project and local settings file of an ask rule', async () => {
    mkdirSync(join(world.project, '.claude'), { recursive: true })
    mkdirSync(world.home, { recursive: true })
    const files: Array<[string, string]> = [
      [join(world.home, 'settings.json'), 'user settings'],
      [join(world.project, '.claude', 'settings.json'), 'project settings'],
      [join(world.project, '.claude', 'settings.local.json'), 'local project settings'],
    ]
    for (const [file, label] of files) {
      server.setScenario([toolUseReply('Bash', { command: 'touch asked.txt' }, { id: 'toolu_touch' }), textReply('Done.')])
      writeFileSync(file, JSON.stringify({ permissions: { ask: ['Bash(touch *)'] } }))
      const asked = nextOn(world, 'approval.requested')
      const { sessionId } = await world.runtime.sessions.create(world.project)
      const turn = world.runtime.sessions.run(sessionId, 'Touch it.')
      const request = await asked
      expect(request.explanation).toEqual({ kind: 'rule', text: `ask rule Bash(touch *) from ${label} (${file}): touch asked.txt` })
      queueOf(sessionId).resolve(request.id, { kind: 'reject', message: 'no' })
      expect((await turn).reason).toBe('completed')
      writeFileSync(file, '{}')
    }
    expect(existsSync(join(world.project, 'asked.txt'))).toBe(false)
  })
})

describe("a command's allowed-tools", () => {
  it('allow for the command’s turn and end with it: the next turn asks, for the general reason', async () => {
    writeUserCommand(world, 'mk', 'allowed-tools: Bash(touch *)\n', 'MAKE-FILES: touch $ARGUMENTS.')
    server.setScenario(
      [
        routeByPrompt({
          'MAKE-FILES': [toolUseReply('Bash', { command: 'touch one.txt' }, { id: 'toolu_one' }), textReply('Made one.')],
          'And another.': [toolUseReply('Bash', { command: 'touch two.txt' }, { id: 'toolu_two' }), textReply('Asked.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    expect((await world.runtime.sessions.run(sessionId, '/mk one.txt')).reason).toBe('completed')
    expect(existsSync(join(world.project, 'one.txt'))).toBe(true)
    const asked = nextOn(world, 'approval.requested')
    const turn = world.runtime.sessions.run(sessionId, 'And another.')
    const request = await asked
    expect(request.toolUseId).toBe('toolu_two')
    expect(request.explanation.text).not.toContain('allowed-tools')
    queueOf(sessionId).resolve(request.id, { kind: 'reject', message: 'no' })
    expect((await turn).reason).toBe('completed')
    expect(existsSync(join(world.project, 'two.txt'))).toBe(false)
  })
})

describe('every source has its label', () => {
  it('managed policy, --settings, the command line, session grants and a command’s rules', async () => {
    const managed = join(world.base, 'managed-settings.json')
    const flag = join(world.base, 'flag-settings.json')
    writeFileSync(managed, JSON.stringify({ permissions: { deny: ['Read(./managed.txt)'] } }))
    writeFileSync(flag, JSON.stringify({ permissions: { deny: ['Read(./flag.txt)'] } }))
    const { settings } = loadSettings(world.project, {
      managedPath: managed,
      sousHome: world.home,
      home: world.userHome,
      cli: { allowedTools: ['Read(./cli.txt)'], settings: flag },
      projectTrust: 'assume',
    })
    const inline = loadSettings(world.project, { managedPath: managed, sousHome: world.home, home: world.userHome, cli: { settings: '{"permissions":{"ask":["Read(./inline.txt)"]}}' } }).settings
    const grants = new SessionGrants(world.project)
    grants.add('Read(./session.txt)')
    grants.addForTurn(['Read(./command.txt)'], '/cmds/mk.md')
    const why = async (file: string, from = settings): Promise<string> => {
      const decision = await decide({ tool: readTool, input: { file_path: join(world.project, file) }, mode: 'default', settings: from, cwd: world.project, projectRoot: world.project, sessionGrants: grants })
      return describeExplanation(decision.explanation)
    }
    expect(await why('managed.txt')).toBe(`deny rule Read(./managed.txt) from managed policy settings (${managed}): ${join(world.project, 'managed.txt')}`)
    expect(await why('flag.txt')).toBe(`deny rule Read(./flag.txt) from --settings (${flag}): ${join(world.project, 'flag.txt')}`)
    expect(await why('inline.txt', inline)).toBe(`ask rule Read(./inline.txt) from --settings: ${join(world.project, 'inline.txt')}`)
    expect(await why('cli.txt')).toBe(`allow rule Read(./cli.txt) from --allowedTools: ${join(world.project, 'cli.txt')}`)
    expect(await why('session.txt')).toBe(`allow rule Read(./session.txt) from this session's grants: ${join(world.project, 'session.txt')}`)
    expect(await why('command.txt')).toBe(`allow rule Read(./command.txt) from a command's allowed-tools (/cmds/mk.md): ${join(world.project, 'command.txt')}`)
    grants.clearTurn()
    expect(await why('command.txt')).toBe('reads inside the project are allowed')
    // The in-memory ask rules are auto mode's "ask me next time" patterns.
    expect(describeOrigin({ text: 'Bash(git push *)', behavior: 'ask', source: 'session', file: '/data/auto-ask.json' })).toBe('auto mode\'s "ask me next time" patterns (/data/auto-ask.json)')
  })
})
