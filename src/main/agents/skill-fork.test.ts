import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, type RecordedRequest } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { nextOn, promptOf, resultOf, routeByPrompt, systemOf, toolNamesOf, useAgentWorld, writeUserSkill } from '../../../test/support/agents'
import { FORK_TAG } from './fork.prompt'

// A skill whose frontmatter says `context: fork` runs as a subagent (Claude Code's documented
// behaviour) whether the Skill tool loads it or the user types `/name`: the `agent` type
// (general-purpose when absent) with a conversation of its own whose prompt is the rendered body;
// only its final text comes back. Its `allowed-tools` are pre-approved for that subagent alone, and
// never over the user's deny rules.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

function isFork(request: RecordedRequest): boolean {
  return JSON.stringify(request.body['messages']).includes(FORK_TAG)
}

describe('skills with context: fork', () => {
  it('run as a general-purpose subagent with a conversation of its own, the body as its prompt, and only the final text returns', async () => {
    writeUserSkill(world, 'release-notes', 'context: fork\n', 'NOTES-DIRECTIVE: draft the release notes from the README.')
    server.setScenario(
      [
        routeByPrompt({
          'PLEASE-NOTES': [toolUseReply('Skill', { skill: 'release-notes' }, { id: 'toolu_skill', text: 'Using the release-notes skill.' }), textReply('The notes are drafted.')],
          'NOTES-DIRECTIVE': [
            toolUseReply('Read', { file_path: join(world.project, 'README.md') }, { id: 'toolu_read', text: 'WORKING-NOTE: reading the README first.' }),
            textReply('FINAL-NOTES: version 2 adds a readme.'),
          ],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'PLEASE-NOTES for the release.')
    expect(result.reason).toBe('completed')
    expect(server.failures).toEqual([])

    // As Claude Code documents: not a copy of the caller — none of its conversation, the general-purpose type.
    const sub = server.requests.filter((request) => promptOf(request).includes('NOTES-DIRECTIVE'))
    expect(sub).toHaveLength(2)
    expect(sub.some(isFork)).toBe(false)
    expect(sub[0]!.body['messages']).toHaveLength(1)
    expect(JSON.stringify(sub[0]!.body['messages'])).not.toContain('PLEASE-NOTES')
    expect(world.events.find((event) => event.type === 'agent_start')).toMatchObject({ agentType: 'general-purpose', parentToolUseId: 'toolu_skill' })

    // The parent reads the subagent's final text only: not its working text, not what it read.
    expect(resultOf(result.messages, 'toolu_skill')).toMatchObject({ content: 'FINAL-NOTES: version 2 adds a readme.' })
    const parentAfter = server.requests.filter((request) => promptOf(request).includes('PLEASE-NOTES')).at(-1)!
    const told = JSON.stringify(parentAfter.body['messages'])
    expect(told).toContain('FINAL-NOTES')
    expect(told).not.toContain('WORKING-NOTE')
    expect(told).not.toContain('NOTES-DIRECTIVE')
    expect(told).not.toContain('# Readme')
  })

  it('run as the `agent` type named in the frontmatter, with the body as its prompt', async () => {
    writeUserSkill(world, 'survey', 'context: fork\nagent: Explore\n', 'SURVEY-PROMPT: list the files of the project.')
    server.setScenario(
      [
        routeByPrompt({
          'PLEASE-SURVEY': [toolUseReply('Skill', { skill: 'survey' }, { id: 'toolu_survey' }), textReply('Surveyed.')],
          'SURVEY-PROMPT': [textReply('SURVEY-RESULT: one README.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'PLEASE-SURVEY the project.')
    expect(result.reason).toBe('completed')
    expect(server.failures).toEqual([])

    const explore = server.requests.find((request) => promptOf(request).includes('SURVEY-PROMPT'))!
    expect(explore).toBeDefined()
    expect(isFork(explore)).toBe(false)
    expect(explore.body['messages']).toHaveLength(1)
    expect(systemOf(explore)).not.toContain('PLEASE-SURVEY')
    expect(toolNamesOf(explore)).not.toContain('Edit')
    expect(toolNamesOf(explore)).not.toContain('Write')
    expect(world.events.find((event) => event.type === 'agent_start')).toMatchObject({ agentType: 'Explore', parentToolUseId: 'toolu_survey' })
    expect(resultOf(result.messages, 'toolu_survey')).toMatchObject({ content: 'SURVEY-RESULT: one README.' })
  })
})

describe('a forked skill typed as /name', () => {
  it('runs its subagent with $ARGUMENTS filled in, without asking the main model, and the conversation keeps only the command and the final text', async () => {
    writeUserSkill(world, 'changelog', 'context: fork\nagent: Explore\n', 'CHANGELOG-PROMPT: list the changes for version $ARGUMENTS.')
    server.setScenario(
      [
        routeByPrompt({
          'CHANGELOG-PROMPT': [toolUseReply('Read', { file_path: join(world.project, 'README.md') }, { id: 'toolu_read', text: 'WORKING-NOTE' }), textReply('CHANGELOG-RESULT: one change.')],
          'AND-THEN': [textReply('Noted.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, '/changelog 2.1')
    expect(result).toMatchObject({ reason: 'completed', resultText: 'CHANGELOG-RESULT: one change.' })
    expect(server.failures).toEqual([])

    // Only the subagent's two requests: the main model was not asked.
    expect(server.requests).toHaveLength(2)
    expect(promptOf(server.requests[0]!).trim()).toBe('CHANGELOG-PROMPT: list the changes for version 2.1.')
    expect(server.requests[0]!.body['messages']).toHaveLength(1)
    expect(toolNamesOf(server.requests[0]!)).not.toContain('Write')

    // The turn shows it as a Skill call with the subagent under it.
    const call = world.events.find((event) => event.type === 'tool_use_start' && event.agentId === 'main')
    expect(call).toMatchObject({ name: 'Skill' })
    const toolUseId = call!.type === 'tool_use_start' ? call!.toolUseId : ''
    expect(world.events.find((event) => event.type === 'agent_start')).toMatchObject({ agentType: 'Explore', parentAgentId: 'main', parentToolUseId: toolUseId })
    expect(world.events.find((event) => event.type === 'tool_end' && event.agentId === 'main')).toMatchObject({ toolUseId, name: 'Skill', isError: false, content: 'CHANGELOG-RESULT: one change.' })
    expect(world.events.filter((event) => event.type === 'turn_start' && event.agentId === 'main').map((event) => event.type === 'turn_start' && event.prompt)).toEqual(['/changelog 2.1'])

    // The main agent learns of it at its next turn: the command and the final text, nothing the subagent saw.
    await world.runtime.sessions.run(sessionId, 'AND-THEN what?')
    const next = JSON.stringify(server.requests.at(-1)!.body['messages'])
    expect(next).toContain('<command-name>/changelog</command-name>')
    expect(next).toContain('CHANGELOG-RESULT: one change.')
    expect(next).not.toContain('CHANGELOG-PROMPT')
    expect(next).not.toContain('WORKING-NOTE')
    expect(next).not.toContain('# Readme')
  })
})

describe('a forked skill’s allowed-tools', () => {
  it('are pre-approved for its subagent alone, and the user’s deny rules still win', async () => {
    writeUserSkill(world, 'scribe', 'context: fork\nallowed-tools: Write Bash\n', 'SCRIBE-PROMPT: write the notes, then touch a marker.')
    // The user's own settings ($SOUS_HOME/settings.json) deny `touch`.
    mkdirSync(world.home, { recursive: true })
    writeFileSync(join(world.home, 'settings.json'), JSON.stringify({ permissions: { deny: ['Bash(touch *)'] } }))
    server.setScenario(
      [
        routeByPrompt({
          'PLEASE-SCRIBE': [
            toolUseReply('Skill', { skill: 'scribe' }, { id: 'toolu_skill' }),
            toolUseReply('Write', { file_path: join(world.project, 'main.md'), content: 'from the main agent\n' }, { id: 'toolu_main_write' }),
            textReply('Done.'),
          ],
          'SCRIBE-PROMPT': [
            toolUseReply('Write', { file_path: join(world.project, 'notes.md'), content: 'notes\n' }, { id: 'toolu_write' }),
            toolUseReply('Bash', { command: `touch ${join(world.project, 'marker')}` }, { id: 'toolu_touch' }),
            textReply('SCRIBE-RESULT'),
          ],
        }),
      ],
      { loop: true },
    )
    const asked = nextOn(world, 'approval.requested')
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const turn = world.runtime.sessions.run(sessionId, 'PLEASE-SCRIBE the notes.')
    // The first question is the main agent's Write: the subagent's Write needed none.
    const request = await asked
    expect(request).toMatchObject({ toolName: 'Write', toolUseId: 'toolu_main_write' })
    expect(request.agent).toBeUndefined()
    const queue = [...world.runtime.approvals.queues()].find((entry) => entry.sessionId === sessionId)!.queue
    queue.resolve(request.id, { kind: 'reject', message: 'not now' })
    expect((await turn).reason).toBe('completed')
    expect(server.failures).toEqual([])

    expect(readFileSync(join(world.project, 'notes.md'), 'utf8')).toBe('notes\n')
    expect(existsSync(join(world.project, 'main.md'))).toBe(false)
    // The skill allows Bash, the user denies `touch`: denied, and no file.
    const touched = world.events.find((event) => event.type === 'tool_end' && event.toolUseId === 'toolu_touch')
    expect(touched).toMatchObject({ isError: true })
    expect(touched?.type === 'tool_end' && touched.content).toContain('Bash(touch *)')
    expect(existsSync(join(world.project, 'marker'))).toBe(false)
  })

  it('of a project skill in a folder not trusted are not applied: its subagent asks', async () => {
    const dir = join(world.project, '.claude', 'skills', 'planted')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'SKILL.md'), '---\ndescription: planted by the repository\ncontext: fork\nallowed-tools: Write\n---\nPLANTED-PROMPT: write a file.\n')
    server.setScenario(
      [
        routeByPrompt({
          'PLEASE-PLANT': [toolUseReply('Skill', { skill: 'planted' }, { id: 'toolu_skill' }), textReply('Done.')],
          'PLANTED-PROMPT': [toolUseReply('Write', { file_path: join(world.project, 'planted.md'), content: 'x\n' }, { id: 'toolu_planted' }), textReply('PLANTED-RESULT')],
        }),
      ],
      { loop: true },
    )
    const asked = nextOn(world, 'approval.requested')
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const turn = world.runtime.sessions.run(sessionId, 'PLEASE-PLANT it.')
    const request = await asked
    expect(request).toMatchObject({ toolName: 'Write', toolUseId: 'toolu_planted', agent: { type: 'general-purpose' } })
    const queue = [...world.runtime.approvals.queues()].find((entry) => entry.sessionId === sessionId)!.queue
    queue.resolve(request.id, { kind: 'reject', message: 'no' })
    expect((await turn).reason).toBe('completed')
    expect(existsSync(join(world.project, 'planted.md'))).toBe(false)
    expect(world.events.find((event) => event.type === 'notice' && event.message.includes('were not applied: this folder is not trusted'))).toBeDefined()
  })
})
