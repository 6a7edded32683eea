import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fixtureEntry } from '../../test/mcp/fixture'
import { textReply, toolUseReply, type Step } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { routeByPrompt, toolNamesOf } from '../../test/support/agents'
import { useHeadless } from '../../test/support/headless'
import { runCli } from '../../test/support/cli-run'
import { readCheckpoints } from '../main/checkpoints/checkpoint-list'
import { runRewind } from './checkpoints'

// Which calls get a checkpoint before them, through the real engine against the scripted model:
// an MCP tool not marked read-only (and not one marked read-only), and a subagent's mutating
// calls, and NotebookEdit (rewound here too). Outside git, so the content store records them.
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })
const BYPASS = ['--permission-mode', 'bypassPermissions', '--output-format', 'json']

/** The session's checkpoints as `tool:agent` lines (`prompt` for a prompt's). */
async function triggers(stdout: string): Promise<string[]> {
  const sessionId = (JSON.parse(stdout) as { session_id: string }).session_id
  const checkpoints = await readCheckpoints(headless.home, sessionId)
  expect(checkpoints.filter((checkpoint) => checkpoint.before.kind === 'missing')).toEqual([])
  return checkpoints.map((checkpoint) => (checkpoint.trigger.kind === 'prompt' ? 'prompt' : `${checkpoint.trigger.name}:${checkpoint.trigger.agentId === 'main' ? 'main' : 'subagent'}`))
}

/** A step that checks the request offers `tool`, then calls it. */
function call(tool: string, input: unknown, id: string): Step {
  return (request) => {
    if (!toolNamesOf(request).includes(tool)) throw new Error(`${tool} is not offered: ${toolNamesOf(request).join(', ')}`)
    return toolUseReply(tool, input, { id })
  }
}

describe('checkpoints before mutating calls', () => {
  it('takes one before an MCP tool not marked read-only, and none before a read-only one', async () => {
    await writeFile(join(headless.project, '.mcp.json'), JSON.stringify({ mcpServers: { fixture: fixtureEntry() } }))
    server.setScenario([
      toolUseReply('WaitForMcpServers', {}, { id: 'toolu_wait' }),
      call('mcp__fixture__echo', { message: 'hi' }, 'toolu_echo'),
      call('mcp__fixture__add', { a: 1, b: 2 }, 'toolu_add'),
      textReply('Done.'),
    ])
    const run = await headless.sous([...BYPASS, 'Use the fixture'])
    expect(run.code, run.stderr).toBe(0)
    expect(server.failures).toEqual([])
    expect(await triggers(run.stdout)).toEqual(['prompt', 'mcp__fixture__add:main'])
  }, 60_000)

  it("takes one before a subagent's mutating calls", async () => {
    const file = join(headless.project, 'by-subagent.txt')
    server.setScenario([
      routeByPrompt({
        'Delegate the write': [toolUseReply('Agent', { description: 'Write a file', prompt: 'Write the file for me.', subagent_type: 'general-purpose' }, { id: 'toolu_agent' }), textReply('Delegated.')],
        'Write the file for me.': [toolUseReply('Glob', { pattern: '*' }), toolUseReply('Write', { file_path: file, content: 'from the subagent\n' }), textReply('Written.')],
      }),
    ], { loop: true })
    const run = await headless.sous([...BYPASS, 'Delegate the write'])
    expect(run.code, run.stderr).toBe(0)
    expect(server.failures).toEqual([])
    expect(await readFile(file, 'utf8')).toBe('from the subagent\n')
    // The subagent's Write is checkpointed (its Glob is read-only); the Agent call itself is not:
    // what its subagent changes is checkpointed call by call.
    expect(await triggers(run.stdout)).toEqual(['prompt', 'Write:subagent'])
  }, 60_000)

  it('takes one before a NotebookEdit, and rewinding it puts the notebook back', async () => {
    const file = join(headless.project, 'analysis.ipynb')
    const original = `${JSON.stringify({ cells: [{ cell_type: 'code', id: 'calc', metadata: {}, execution_count: 1, source: ['x = 1'], outputs: [] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }, null, 1)}\n`
    await writeFile(file, original)
    server.setScenario([
      toolUseReply('Read', { file_path: file }),
      call('NotebookEdit', { notebook_path: file, cell_id: 'calc', new_source: 'x = 2' }, 'toolu_nb'),
      textReply('Edited the cell.'),
    ])
    const run = await headless.sous([...BYPASS, 'Change the cell'])
    expect(run.code, run.stderr).toBe(0)
    expect(server.failures).toEqual([])
    expect(JSON.parse(await readFile(file, 'utf8')).cells[0].source).toBe('x = 2')
    expect(await triggers(run.stdout)).toEqual(['prompt', 'NotebookEdit:main'])
    const sessionId = (JSON.parse(run.stdout) as { session_id: string }).session_id
    const checkpoint = (await readCheckpoints(headless.home, sessionId)).find((found) => found.trigger.kind === 'tool')!
    const rewound = await runCli(runRewind, [sessionId, '--to', checkpoint.id, '--code', '--cwd', headless.project], { SOUS_HOME: headless.home, HOME: headless.home, PATH: process.env['PATH'] })
    expect(rewound.code, rewound.stderr).toBe(0)
    expect(rewound.stdout).toContain('analysis.ipynb')
    expect(await readFile(file, 'utf8')).toBe(original)
  }, 60_000)
})
