import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, type RecordedRequest } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { promptOf, resultOf, routeByPrompt, systemOf, toolNamesOf, useAgentWorld } from '../../../test/support/agents'
import type { Message } from '../services/model/types'
import { FORK_TAG } from './fork.prompt'

// A skill whose frontmatter says `context: fork` runs as a subagent when the Skill tool loads it:
// its body is the subagent's prompt (a fork of the caller, or the `agent` type), and only the
// subagent's final text comes back as the Skill call's result.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

function writeSkill(name: string, frontmatter: string, body: string): void {
  const dir = join(world.userHome, '.claude', 'skills', name)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'SKILL.md'), `---\ndescription: ${name} for the project\n${frontmatter}---\n${body}\n`)
}

function isFork(request: RecordedRequest): boolean {
  return JSON.stringify(request.body['messages']).includes(FORK_TAG)
}

describe('skills with context: fork', () => {
  it('run as a fork of the caller with the body as its directive, and only the final text returns', async () => {
    writeSkill('release-notes', 'context: fork\n', 'NOTES-DIRECTIVE: draft the release notes from the README.')
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

    const forks = server.requests.filter(isFork)
    expect(forks).toHaveLength(2)
    // The fork starts from the parent's request: the parent's messages, its Skill call, then the directive.
    const parent = server.requests[0]!
    const forkMessages = forks[0]!.body['messages'] as Message[]
    const parentMessages = parent.body['messages'] as Message[]
    expect(forkMessages).toHaveLength(parentMessages.length + 2)
    expect(forkMessages[parentMessages.length]).toMatchObject({ role: 'assistant', content: [{ type: 'text' }, { type: 'tool_use', id: 'toolu_skill', name: 'Skill' }] })
    expect(JSON.stringify(forkMessages.at(-1))).toContain('NOTES-DIRECTIVE: draft the release notes from the README.')
    expect(world.events.find((event) => event.type === 'agent_start')).toMatchObject({ agentType: 'fork', parentToolUseId: 'toolu_skill' })

    // The parent reads the fork's final text only: not its working text, not what it read.
    expect(resultOf(result.messages, 'toolu_skill')).toMatchObject({ content: 'FINAL-NOTES: version 2 adds a readme.' })
    const parentAfter = server.requests.filter((request) => !isFork(request)).at(-1)!
    const told = JSON.stringify(parentAfter.body['messages'])
    expect(told).toContain('FINAL-NOTES')
    expect(told).not.toContain('WORKING-NOTE')
    expect(told).not.toContain('NOTES-DIRECTIVE')
    expect(told).not.toContain('# Readme')
  })

  it('run as the `agent` type named in the frontmatter, with the body as its prompt', async () => {
    writeSkill('survey', 'context: fork\nagent: Explore\n', 'SURVEY-PROMPT: list the files of the project.')
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
