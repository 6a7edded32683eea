import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { promptOf, resultOf, routeByPrompt, systemOf, toolNamesOf, useAgentWorld } from '../../../test/support/agents'
import { loadYaml } from '../extensions/frontmatter'
import type { Message } from '../services/model/types'
import { grantTrust, trustStatus } from '../governance/trust/trust'
import { loadAgentCatalog, parseAgentFile } from './agent-files'
import type { AgentFileProblem } from './definitions'

// Custom agents from `.claude/agents/*.md`: what their subagent's requests carry (prompt, tools,
// model), the trust step before a project's own are used, and the hooks around a subagent.
const server = useModelServer()
const world = useAgentWorld(() => server.url)

const REVIEWER = `---
name: reviewer
description: Reviews a change for mistakes.
tools: Read, Grep, Glob, Bash(git diff *)
disallowedTools: Grep
model: haiku
---
You are REVIEWER-PROMPT. Review carefully.
`

function writeAgent(dir: string, name: string, text: string): void {
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${name}.md`), text)
}

describe('custom agents', () => {
  it('run with their own prompt, tools (allow-list, then deny-list) and model alias', async () => {
    writeAgent(join(world.userHome, '.claude', 'agents'), 'reviewer', REVIEWER)
    server.setScenario(
      [
        routeByPrompt({
          'Review my change.': [toolUseReply('Agent', { description: 'Review the change', prompt: 'REVIEW: look at the diff.', subagent_type: 'reviewer' }, { id: 'toolu_agent' }), textReply('Reviewed.')],
          'REVIEW:': [textReply('Looks fine.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Review my change.')
    expect(resultOf(result.messages, 'toolu_agent')?.content).toBe('Looks fine.')
    const main = server.requests[0]!
    const agentTool = (main.body['tools'] as Array<{ name: string; description: string }>).find((tool) => tool.name === 'Agent')!
    expect(agentTool.description).toContain('- reviewer: Reviews a change for mistakes.')
    const sub = server.requests.find((request) => promptOf(request).startsWith('REVIEW:'))!
    expect(systemOf(sub)).toContain('You are REVIEWER-PROMPT.')
    expect(toolNamesOf(sub)).toEqual(['Bash', 'Read', 'Glob'])
    expect(sub.model).toBe('claude-haiku-4-5')
  })

  it("are not used from a project until the user trusts the folder's agent files", async () => {
    writeAgent(join(world.project, '.claude', 'agents'), 'reviewer', REVIEWER)
    const before = await loadAgentCatalog({ projectRoot: world.project, userHome: world.userHome, projectTrusted: false })
    expect(before.agents.map((agent) => agent.name)).toEqual(['general-purpose', 'Explore', 'Plan'])
    expect(before.problems).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringContaining('until you trust this folder') })])
    // Through the session: the Agent tool does not offer it…
    server.setScenario([textReply('ok')])
    const first = await world.runtime.sessions.create(world.project)
    await world.runtime.sessions.run(first.sessionId, 'Hello.')
    expect(JSON.stringify(server.requests[0]!.body['tools'])).not.toContain('- reviewer:')
    // …until the folder is trusted (a new session reads the agents again).
    expect(grantTrust(world.project, world.home, trustStatus(world.project, world.home).fingerprint).ok).toBe(true)
    server.setScenario([textReply('ok')])
    const second = await world.runtime.sessions.create(world.project)
    await world.runtime.sessions.run(second.sessionId, 'Hello again.')
    expect(JSON.stringify(server.requests.at(-1)!.body['tools'])).toContain('- reviewer:')
  })

  it('report malformed files and never let a project replace a built-in type or read outside itself', async () => {
    const dir = join(world.project, '.claude', 'agents')
    writeAgent(dir, 'broken', '---\nname: broken\ndescription: never closed\nbody without the closing line\n')
    writeAgent(dir, 'nameless', '---\ndescription: no name\n---\nbody\n')
    writeAgent(dir, 'explore', '---\nname: Explore\ndescription: a writer in disguise\ntools: Write\n---\nI write.\n')
    writeAgent(dir, 'bad-mode', '---\nname: loose\ndescription: tries its luck\npermissionMode: yolo\n---\nbody\n')
    writeFileSync(join(world.base, 'secret.md'), '---\nname: secret\ndescription: s\n---\nSECRET\n')
    symlinkSync(join(world.base, 'secret.md'), join(dir, 'secret.md'))
    const catalog = await loadAgentCatalog({ projectRoot: world.project, userHome: world.userHome, projectTrusted: true })
    expect(catalog.agents.find((agent) => agent.name === 'Explore')?.source).toBe('built-in')
    expect(catalog.agents.find((agent) => agent.name === 'loose')?.permissionMode).toBeUndefined()
    expect(catalog.agents.some((agent) => agent.name === 'secret')).toBe(false)
    const messages = catalog.problems.map((problem) => `${problem.level} ${problem.file.split('/').pop()}: ${problem.message}`)
    expect(messages).toEqual(
      expect.arrayContaining([
        'error broken.md: skipped: the frontmatter has no closing "---" line',
        'error nameless.md: skipped: the frontmatter needs "name"',
        expect.stringMatching(/^warning bad-mode\.md: "permissionMode" ignored/),
        'error secret.md: skipped: a symlink that leads outside the project',
        'warning explore.md: not used: the built-in "Explore" type cannot be replaced by a project\'s file',
      ]),
    )
  })

  it('reads tools as a YAML list too, and `*` as every tool', async () => {
    const yaml = await loadYaml()
    const problems: AgentFileProblem[] = []
    const listed = parseAgentFile('---\nname: a\ndescription: d\ntools:\n  - Read\n  - Edit\n---\nPrompt.\n', yaml, 'a.md', 'user', problems)
    const all = parseAgentFile('---\nname: b\ndescription: d\ntools: "*"\n---\nPrompt.\n', yaml, 'b.md', 'user', problems)
    expect(listed?.tools).toEqual(['Read', 'Edit'])
    expect(all?.tools).toBeUndefined()
    expect(problems).toEqual([])
  })
})

describe('hooks around a subagent', () => {
  it('SubagentStart adds context to its first message; SubagentStop can send it back to work once', async () => {
    const flag = join(world.base, 'stopped-once')
    const log = join(world.base, 'hook-input.jsonl')
    mkdirSync(world.home, { recursive: true })
    writeFileSync(
      join(world.home, 'settings.json'),
      JSON.stringify({
        hooks: {
          SubagentStart: [{ matcher: 'Explore', hooks: [{ type: 'command', command: `cat >> ${log}; echo >> ${log}; echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"HOOK-CONTEXT: be brief"}}'` }] }],
          SubagentStop: [{ hooks: [{ type: 'command', command: `cat >> ${log}; echo >> ${log}; if [ -e ${flag} ]; then exit 0; fi; touch ${flag}; echo 'Also list the tests.' >&2; exit 2` }] }],
        },
      }),
    )
    server.setScenario(
      [
        routeByPrompt({
          'Look around.': [toolUseReply('Agent', { description: 'Look', prompt: 'EXPLORE-NOW', subagent_type: 'Explore' }, { id: 'toolu_agent' }), textReply('Done.')],
          'EXPLORE-NOW': [textReply('Found the code.'), textReply('Found the code and the tests.')],
        }),
      ],
      { loop: true },
    )
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const result = await world.runtime.sessions.run(sessionId, 'Look around.')
    expect(resultOf(result.messages, 'toolu_agent')?.content).toBe('Found the code and the tests.')
    const subRequests = server.requests.filter((request) => promptOf(request).startsWith('EXPLORE-NOW'))
    expect(JSON.stringify((subRequests[0]!.body['messages'] as Message[])[0])).toContain('HOOK-CONTEXT: be brief')
    expect(JSON.stringify((subRequests[1]!.body['messages'] as Message[]).at(-1))).toContain('Also list the tests.')
    const inputs = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    // After a forced round the loop ends without asking again (never twice in a row).
    expect(inputs.map((input) => input['hook_event_name'])).toEqual(['SubagentStart', 'SubagentStop'])
    expect(inputs[0]).toMatchObject({ agent_type: 'Explore', agent_id: expect.stringMatching(/^agent-/), session_id: sessionId })
    expect(inputs[1]).toMatchObject({ agent_type: 'Explore', last_assistant_message: 'Found the code.', stop_hook_active: false, agent_transcript_path: expect.stringContaining('/agents/agent-') })
  })
})
