import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, type RecordedRequest } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { nextOn, promptOf, resultOf, routeByPrompt, toolNamesOf, useAgentWorld, writeUserCommand, writeUserSkill } from '../../../test/support/agents'

// Claude Code merged custom commands into skills: `.claude/commands/<name>.md` takes the same
// frontmatter, so `context: fork` (and `agent`) run a command as a forked skill runs. A template's
// `model` is its subagent's model when it forks and, inline, the model for the rest of the turn
// that uses it (the session's resumes at the next prompt); aliases map as the Agent tool's do.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

const modelOf = (request: RecordedRequest) => request.body['model']

/** The runtime again, with `ANTHROPIC_DEFAULT_*_MODEL` pinning aliases to models of our own. */
async function withPinnedAliases(): Promise<void> {
  await world.restart({
    env: { ANTHROPIC_API_KEY: 'test', ANTHROPIC_BASE_URL: server.url, HOME: world.userHome, ANTHROPIC_DEFAULT_HAIKU_MODEL: 'pinned-haiku', ANTHROPIC_DEFAULT_OPUS_MODEL: 'pinned-opus' },
  })
}

describe('a custom command with context: fork typed as /name', () => {
  it('runs as a subagent of its `agent` type with $ARGUMENTS filled in, without asking the main model, and only its final text returns', async () => {
    writeUserCommand(world, 'audit', 'context: fork\nagent: Explore\n', 'AUDIT-PROMPT: audit the module $ARGUMENTS and report.')
    server.setScenario(
      [
        routeByPrompt({
          'AUDIT-PROMPT': [toolUseReply('Read', { file_path: join(world.project, 'README.md') }, { id: 'toolu_read', text: 'WORKING-NOTE' }), textReply('AUDIT-RESULT: all clear.')],
          'AND-THEN': [textReply('Noted.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, '/audit billing')
    expect(result).toMatchObject({ reason: 'completed', resultText: 'AUDIT-RESULT: all clear.' })
    expect(server.failures).toEqual([])

    // The subagent's two requests only: a conversation of its own whose prompt is the rendered body.
    expect(server.requests).toHaveLength(2)
    expect(promptOf(server.requests[0]!).trim()).toBe('AUDIT-PROMPT: audit the module billing and report.')
    expect(server.requests[0]!.body['messages']).toHaveLength(1)
    expect(toolNamesOf(server.requests[0]!)).not.toContain('Write')
    const call = world.events.find((event) => event.type === 'tool_use_start' && event.agentId === 'main')
    expect(call).toMatchObject({ name: 'Skill' })
    expect(world.events.find((event) => event.type === 'agent_start')).toMatchObject({ agentType: 'Explore', parentAgentId: 'main' })

    // The main agent learns of it at its next turn: the command and the final text, nothing the subagent saw.
    await world.runtime.sessions.run(sessionId, 'AND-THEN what?')
    const next = JSON.stringify(server.requests.at(-1)!.body['messages'])
    expect(next).toContain('<command-name>/audit</command-name>')
    expect(next).toContain('AUDIT-RESULT: all clear.')
    expect(next).not.toContain('AUDIT-PROMPT')
    expect(next).not.toContain('WORKING-NOTE')
  })

  it('pre-approves its allowed-tools for its subagent alone', async () => {
    writeUserCommand(world, 'scribe', 'context: fork\nallowed-tools: Write\n', 'SCRIBE-PROMPT: write the notes.')
    server.setScenario(
      [
        routeByPrompt({
          'SCRIBE-PROMPT': [toolUseReply('Write', { file_path: join(world.project, 'notes.md'), content: 'notes\n' }, { id: 'toolu_write' }), textReply('SCRIBE-RESULT')],
          'PLEASE-WRITE': [toolUseReply('Write', { file_path: join(world.project, 'main.md'), content: 'main\n' }, { id: 'toolu_main_write' }), textReply('Done.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    // The subagent's Write needs no question.
    expect(await world.runtime.sessions.run(sessionId, '/scribe')).toMatchObject({ reason: 'completed', resultText: 'SCRIBE-RESULT' })
    expect(readFileSync(join(world.project, 'notes.md'), 'utf8')).toBe('notes\n')
    const wrote = world.events.find((event) => event.type === 'tool_end' && event.toolUseId === 'toolu_write')
    expect(wrote).toMatchObject({ isError: false })
    expect(wrote?.agentId).not.toBe('main')

    // The main agent's Write afterwards is asked about: the grant was the subagent's.
    const asked = nextOn(world, 'approval.requested')
    const turn = world.runtime.sessions.run(sessionId, 'PLEASE-WRITE it.')
    const request = await asked
    expect(request).toMatchObject({ toolName: 'Write', toolUseId: 'toolu_main_write' })
    expect(request.agent).toBeUndefined()
    const queue = [...world.runtime.approvals.queues()].find((entry) => entry.sessionId === sessionId)!.queue
    queue.resolve(request.id, { kind: 'reject', message: 'not now' })
    expect((await turn).reason).toBe('completed')
    expect(server.failures).toEqual([])
    expect(existsSync(join(world.project, 'main.md'))).toBe(false)
  })

  it('of the project in a folder not trusted does not apply its allowed-tools: its subagent asks', async () => {
    const dir = join(world.project, '.claude', 'commands')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'planted.md'), '---\ndescription: planted by the repository\ncontext: fork\nallowed-tools: Write\n---\nPLANTED-PROMPT: write a file.\n')
    server.setScenario(
      [routeByPrompt({ 'PLANTED-PROMPT': [toolUseReply('Write', { file_path: join(world.project, 'planted.md'), content: 'x\n' }, { id: 'toolu_planted' }), textReply('PLANTED-RESULT')] })],
      { loop: true },
    )
    const asked = nextOn(world, 'approval.requested')
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const turn = world.runtime.sessions.run(sessionId, '/planted')
    const request = await asked
    expect(request).toMatchObject({ toolName: 'Write', toolUseId: 'toolu_planted', agent: { type: 'general-purpose' } })
    const queue = [...world.runtime.approvals.queues()].find((entry) => entry.sessionId === sessionId)!.queue
    queue.resolve(request.id, { kind: 'reject', message: 'no' })
    expect((await turn).reason).toBe('completed')
    expect(existsSync(join(world.project, 'planted.md'))).toBe(false)
  })
})

describe('a skill’s or command’s model', () => {
  it('is the model of a forked skill’s subagent (an alias mapped as the Agent tool maps it); the caller keeps its own', async () => {
    await withPinnedAliases()
    writeUserSkill(world, 'quick-survey', 'context: fork\nmodel: haiku\n', 'QUICK-PROMPT: list the files.')
    server.setScenario(
      [
        routeByPrompt({
          'PLEASE-SURVEY': [toolUseReply('Skill', { skill: 'quick-survey' }, { id: 'toolu_skill' }), textReply('Surveyed.')],
          'QUICK-PROMPT': [textReply('QUICK-RESULT')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'PLEASE-SURVEY the project.')
    expect(result.reason).toBe('completed')
    expect(server.failures).toEqual([])
    expect(resultOf(result.messages, 'toolu_skill')).toMatchObject({ content: 'QUICK-RESULT' })
    const sub = server.requests.filter((request) => promptOf(request).includes('QUICK-PROMPT'))
    const main = server.requests.filter((request) => promptOf(request).includes('PLEASE-SURVEY'))
    expect(sub.map(modelOf)).toEqual(['pinned-haiku'])
    expect(main.map(modelOf)).toEqual(['claude-sonnet-4-6', 'claude-sonnet-4-6'])
  })

  it('is the model of a forked command’s subagent when typed, and a model id is taken as written', async () => {
    writeUserCommand(world, 'deep-review', 'context: fork\nmodel: claude-opus-4-1\n', 'DEEP-PROMPT: review the change.')
    server.setScenario([routeByPrompt({ 'DEEP-PROMPT': [textReply('DEEP-RESULT')] })], { loop: true })
    const { sessionId } = await world.runtime.sessions.create(world.project)
    expect(await world.runtime.sessions.run(sessionId, '/deep-review')).toMatchObject({ reason: 'completed', resultText: 'DEEP-RESULT' })
    // Its subagent's one request: the body as the prompt of a conversation of its own, on the command's model.
    expect(server.requests.map(modelOf)).toEqual(['claude-opus-4-1'])
    expect(promptOf(server.requests[0]!).trim()).toBe('DEEP-PROMPT: review the change.')
  })

  it('of an inline skill the model loads is used for the rest of that turn, and the session’s model resumes at the next prompt', async () => {
    await withPinnedAliases()
    writeUserSkill(world, 'careful', 'model: opus\n', 'CAREFUL-BODY: think twice.')
    server.setScenario(
      [
        routeByPrompt({
          'PLEASE-CAREFUL': [toolUseReply('Skill', { skill: 'careful' }, { id: 'toolu_skill' }), toolUseReply('Read', { file_path: join(world.project, 'README.md') }, { id: 'toolu_read' }), textReply('Careful done.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    expect((await world.runtime.sessions.run(sessionId, 'PLEASE-CAREFUL with this.')).reason).toBe('completed')
    expect(server.failures).toEqual([])
    // The request that loaded it ran on the session's model; the two after it on the skill's.
    expect(server.requests.map(modelOf)).toEqual(['claude-sonnet-4-6', 'pinned-opus', 'pinned-opus'])

    server.setScenario([textReply('Back.')])
    await world.runtime.sessions.run(sessionId, 'And now?')
    expect(modelOf(server.requests.at(-1)!)).toBe('claude-sonnet-4-6')
  })

  it('of an inline command typed as /name is the model of its turn only (an alias mapped as the Agent tool maps it)', async () => {
    await withPinnedAliases()
    writeUserCommand(world, 'tidy', 'model: haiku\n', 'TIDY-BODY: tidy the README.')
    server.setScenario([textReply('Tidied.'), textReply('Back.')])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    expect((await world.runtime.sessions.run(sessionId, '/tidy')).reason).toBe('completed')
    await world.runtime.sessions.run(sessionId, 'And now?')
    expect(server.failures).toEqual([])
    expect(server.requests.map(modelOf)).toEqual(['pinned-haiku', 'claude-sonnet-4-6'])
  })
})
