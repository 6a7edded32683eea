import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { routeByPrompt } from '../../test/support/agents'
import { transcriptPath } from '../main/store/transcript'
import { runPrint } from './print'

// Subagents through `sous -p`: the real SDK against the scripted server, the real session runtime
// and sidechain transcripts in a temp SOUS_HOME.
const server = useModelServer()

let home: string
let project: string

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-home-'))
  project = await mkdtemp(join(tmpdir(), 'sous-project-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
  await rm(project, { recursive: true, force: true })
})

async function sous(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const code = await runPrint(['-p', '--cwd', project, ...args], { SOUS_HOME: home, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key', HOME: home }, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  })
  return { code, stdout, stderr }
}

describe('subagents through sous -p', () => {
  it('run headless; stream-json marks their events with the Agent call they belong to', async () => {
    server.setScenario(
      [
        routeByPrompt({
          'Ask a helper.': [toolUseReply('Agent', { description: 'Count files', prompt: 'Count the files here.', subagent_type: 'Explore' }, { id: 'toolu_helper' }), textReply('The helper counted 0 files.')],
          'Count the files here.': [textReply('There are 0 files.')],
        }),
      ],
      { loop: true },
    )
    const { code, stdout, stderr } = await sous(['--output-format', 'stream-json', 'Ask a helper.'])
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
    const agents = await readdir(join(transcriptPath(home, project, sessionId).replace(/\.jsonl$/, ''), 'agents'))
    expect(agents).toHaveLength(1)
    expect(agents[0]).toMatch(/^agent-[0-9a-f]+\.jsonl$/)
  })
})
