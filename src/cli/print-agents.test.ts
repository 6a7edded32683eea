import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, type RecordedRequest } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import { promptOf, routeByPrompt, toolNamesOf } from '../../test/support/agents'
import type { Message } from '../main/services/model/types'
import { transcriptPath } from '../main/store/transcript'

// Subagents through `sous -p`: the real SDK against the scripted server, the real session runtime
// and sidechain transcripts in a temp SOUS_HOME.
const server = useModelServer()

const headless = useHeadless(server)
const sous = (args: string[]) => headless.sous(args)

describe('subagents through sous -p', () => {
  it('run headless; sous-events marks their events with the Agent call they belong to', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Ask a helper.': [toolUseReply('Agent', { description: 'Count files', prompt: 'Count the files here.', subagent_type: 'Explore' }, { id: 'toolu_helper' }), textReply('The helper counted 0 files.')],
          'Count the files here.': [textReply('There are 0 files.')],
        }),
      ],
      { loop: true },
    )
    const { code, stdout, stderr } = await sous(['--output-format', 'sous-events', 'Ask a helper.'])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    const start = lines.find((line) => line['type'] === 'agent_start')
    expect(start).toMatchObject({ parent_tool_use_id: 'toolu_helper', agentType: 'Explore' })
    const helperText = lines.filter((line) => line['type'] === 'text_delta' && line['parent_tool_use_id'] === 'toolu_helper')
    expect(helperText.map((line) => line['text']).join('')).toBe('There are 0 files.')
    // The main agent's own events say null.
    expect(lines.find((line) => line['type'] === 'tool_use_start' && line['name'] === 'Agent')).toMatchObject({ parent_tool_use_id: null })
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'The helper counted 0 files.' })
    // The subagent's conversation is kept beside the session's transcript.
    const sessionId = lines.at(-1)!['session_id'] as string
    const agents = await readdir(join(transcriptPath(headless.home, headless.project, sessionId).replace(/\.jsonl$/, ''), 'agents'))
    expect(agents).toHaveLength(1)
    expect(agents[0]).toMatch(/^agent-[0-9a-f]+\.jsonl$/)
  })

  it('--coordinator ends only once the workers reported and the coordinator answered', async () => {
    const reported = (request: RecordedRequest, result: string) => (request.body['messages'] as Message[]).some((message) => message.role === 'user' && JSON.stringify(message).includes('<task-notification>') && JSON.stringify(message).includes(result))
    // One report turn or two (the workers may finish together): the answer waits for both results.
    const report = (request: RecordedRequest) => textReply(reported(request, 'A-RESULT') && reported(request, 'B-RESULT') ? 'FINAL: both workers reported.' : 'One worker reported; waiting for the other.')
    server.setScenario(
      [
        routeByPrompt({
          '<task-notification>': [report, report],
          'Coordinate the survey.': [
            {
              reply: {
                content: [
                  { type: 'tool_use', id: 'toolu_a', name: 'Agent', input: { description: 'Survey A', prompt: 'WORKER-A: count the files.' } },
                  { type: 'tool_use', id: 'toolu_b', name: 'Agent', input: { description: 'Survey B', prompt: 'WORKER-B: read the readme.' } },
                ],
              },
            },
            textReply('Two workers are on it.'),
          ],
          // Slow, so the coordinator's first turn ends well before they do.
          'WORKER-A': [{ ...textReply('A-RESULT: no files.'), chunkSize: 2, delayMs: 40 }],
          'WORKER-B': [{ ...textReply('B-RESULT: no readme.'), chunkSize: 2, delayMs: 60 }],
        }),
      ],
      { loop: true },
    )
    const { code, stdout, stderr } = await sous(['--coordinator', '--output-format', 'json', 'Coordinate the survey.'])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const result = JSON.parse(stdout) as Record<string, unknown>
    expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'FINAL: both workers reported.' })
    // The coordinator offered only its own tools, and both results reached it as user messages.
    const first = server.requests.find((request) => promptOf(request) === 'Coordinate the survey.')!
    expect(toolNamesOf(first).sort()).toEqual(['Agent', 'SendMessage', 'StructuredOutput', 'TaskStop', 'TeamCreate', 'TeamDelete'])
    expect(server.requests.some((request) => reported(request, 'A-RESULT'))).toBe(true)
    expect(server.requests.some((request) => reported(request, 'B-RESULT'))).toBe(true)
    // Every request of the coordinator counts: two in its first turn, at least one per report turn.
    expect(result['num_turns']).toBeGreaterThanOrEqual(3)
  })

  it('without --coordinator, the main agent keeps its own tools', async () => {
    server.setScenario([textReply('Hello.')])
    const { code, stdout } = await sous(['Say hello.'])
    expect(code).toBe(0)
    expect(stdout).toBe('Hello.\n')
    expect(toolNamesOf(server.requests[0]!)).toEqual(expect.arrayContaining(['Agent', 'Bash', 'Read']))
  })
})
