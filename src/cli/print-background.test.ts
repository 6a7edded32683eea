import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, type RecordedRequest } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import { routeByPrompt } from '../../test/support/agents'
import type { Message, ToolResultBlock } from '../main/services/model/types'

// `sous -p` staying up for background work as Claude Code's `-p` does: the real CLI, runtime, PTYs
// and SDK against the scripted server; each end of background work arrives as a notification turn.
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })

const messagesOf = (request: RecordedRequest) => request.body['messages'] as Message[]
const lastUserText = (request: RecordedRequest): string => {
  const last = messagesOf(request).at(-1)!
  return typeof last.content === 'string' ? last.content : last.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
}
const resultText = (block: ToolResultBlock) => (typeof block.content === 'string' ? block.content : block.content.map((part) => (part.type === 'text' ? part.text : '')).join(''))
const lastResults = (request: RecordedRequest) => (messagesOf(request).at(-1)!.content as ToolResultBlock[]).filter((block) => block.type === 'tool_result')

describe('sous -p with background work', () => {
  it('waits for a background agent (the agentsInBackground setting), delivers its report as a notification turn, and ends after it', async () => {
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ agentsInBackground: true }))
    server.setScenario(
      [
        routeByPrompt({
          '<task-notification>': [textReply('The survey found 3 files.')],
          // No run_in_background: the setting sends it to the background.
          'Start the survey.': [toolUseReply('Agent', { description: 'Survey', prompt: 'SURVEY-TASK: count the files.', effort: 'low' }, { id: 'toolu_survey' }), textReply('Started; waiting for it.')],
          // Slow, so the main turn ends well before the agent does.
          'SURVEY-TASK': [{ ...textReply('SURVEY-RESULT: 3 files'), chunkSize: 2, delayMs: 40 }],
        }),
      ],
      { loop: true },
    )
    const { code, stdout, stderr } = await headless.sous(['--output-format', 'json', 'Start the survey.'])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(server.failures).toEqual([])
    const result = JSON.parse(stdout) as Record<string, unknown>
    expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'The survey found 3 files.' })
    // Both turns count: two requests for the prompt, one for the notification.
    expect(result['num_turns']).toBe(3)
    const first = server.requests.find((request) => lastUserText(request).includes('Start the survey.'))!
    const agentTool = (first.body['tools'] as Array<{ name: string; input_schema: { properties: Record<string, { description?: string }> } }>).find((tool) => tool.name === 'Agent')!
    expect(agentTool.input_schema.properties['run_in_background']!.description).toMatch(/^Agents run in the background by default/)
    expect(agentTool.input_schema.properties['effort']).toBeDefined()
    // The launch result said so, and the agent ran at the effort asked for.
    const launched = server.requests.find((request) => lastResults(request).some((block) => block.tool_use_id === 'toolu_survey'))!
    expect(resultText(lastResults(launched)[0]!)).toMatch(/It is running in the background: agent id agent-[0-9a-f]+\. You will be notified automatically when it completes/)
    const agentRequest = server.requests.find((request) => JSON.stringify(messagesOf(request)[0]).includes('SURVEY-TASK'))!
    expect(agentRequest.body['output_config']).toMatchObject({ effort: 'low' })
    // The report is a user message of its own, in Claude Code 2.1.328's shape.
    const notified = server.requests.at(-1)!
    const text = lastUserText(notified)
    expect(text).toMatch(/^<system-reminder>\n\[SYSTEM NOTIFICATION - NOT USER INPUT\]\nThis is an automated background-task event, NOT a message from the user\./)
    expect(text).toMatch(/<task-notification>\n<task-id>agent-[0-9a-f]+<\/task-id>\n<tool-use-id>toolu_survey<\/tool-use-id>\n<output-file>[^<]+\.jsonl<\/output-file>\n<status>completed<\/status>\n<summary>Agent "Survey" finished<\/summary>\n<note>[^<]+<\/note>\n<result>SURVEY-RESULT: 3 files<\/result>\n<usage><subagent_tokens>\d+<\/subagent_tokens><tool_uses>0<\/tool_uses><duration_ms>\d+<\/duration_ms><\/usage>\n<\/task-notification>\n<\/system-reminder>$/)
    expect(messagesOf(notified).at(-2)).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Started; waiting for it.' }] })
  })

  it("writes a background command's output to the file its launch result names, readable with Read; stream-json carries the notification", async () => {
    const pathIn = (text: string, pattern: RegExp) => pattern.exec(text)?.[1] ?? ''
    server.setScenario(
      [
        routeByPrompt({
          '<task-notification>': [
            (request) => toolUseReply('Read', { file_path: pathIn(lastUserText(request), /<output-file>([^<]+)<\/output-file>/) }, { id: 'toolu_read_after' }),
            textReply('It printed two lines.'),
          ],
          'Run it in the background.': [
            toolUseReply('Bash', { command: 'echo BG-LINE-1; sleep 2; echo BG-LINE-2', description: 'Print two lines', run_in_background: true }, { id: 'toolu_shell' }),
            (request) => toolUseReply('Read', { file_path: pathIn(resultText(lastResults(request)[0]!), /Output is being written to: (\S+)\. /) }, { id: 'toolu_read_early' }),
            textReply('Launched.'),
          ],
        }),
      ],
      { loop: true },
    )
    const { code, stdout, stderr } = await headless.sous(['--output-format', 'stream-json', '--allowedTools', 'Bash', 'Run it in the background.'])
    expect(withoutSandboxWarning(stderr)).toBe('')
    expect(code).toBe(0)
    expect(server.failures).toEqual([])
    const lines = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    const sessionId = lines[0]!['session_id'] as string
    // Claude Code's launch words, with the file in the session's own (readable) tool-results folder.
    const launch = server.requests.find((request) => lastResults(request).some((block) => block.tool_use_id === 'toolu_shell'))!
    const launchText = resultText(lastResults(launch)[0]!)
    expect(launchText).toMatch(/^Command running in background with ID: bash_1\. Output is being written to: \S+\/tasks\/bash_1-toolu_shell\.output\. You will be notified when it completes\. To check interim output, use Read on that file path\./)
    expect(launchText).toContain(`/tool-results/${sessionId}/tasks/`)
    // Read right after the launch finds the file (no approval asked, none denied).
    const early = server.requests.find((request) => lastResults(request).some((block) => block.tool_use_id === 'toolu_read_early'))!
    expect(lastResults(early)[0]!.is_error).toBeUndefined()
    // The notification names the call and the file; Read then has all of it, without terminal codes.
    const notice = lines.find((line) => line['type'] === 'system' && line['subtype'] === 'task_notification')
    expect(notice).toMatchObject({ task_id: 'bash_1', tool_use_id: 'toolu_shell', status: 'completed', summary: 'Background command "Print two lines" completed (exit code 0)', session_id: sessionId })
    expect(launchText).toContain(notice!['output_file'] as string)
    // Claude Code 2.1.328's fields (recorded for an agent's end; a command's has no usage), but its run id.
    const recorded = (JSON.parse(readFileSync(join(import.meta.dirname, '../../test/fixtures/claude-code-2.1.328-stream-json.shape.json'), 'utf8')) as { shape: Record<string, Record<string, string>> }).shape['system:task_notification']!
    expect(Object.keys(notice!).sort()).toEqual(Object.keys(recorded).filter((key) => key !== 'run_id' && key !== 'usage').sort())
    const after = server.requests.find((request) => lastResults(request).some((block) => block.tool_use_id === 'toolu_read_after'))!
    const read = resultText(lastResults(after)[0]!)
    expect(read).toMatch(/BG-LINE-1\n\s*\d+\tBG-LINE-2/)
    expect(read).not.toContain('\r')
    // One result line per turn, as Claude Code prints them; the notification's own message is not echoed.
    const results = lines.filter((line) => line['type'] === 'result')
    expect(results.map((line) => line['result'])).toEqual(['Launched.', 'It printed two lines.'])
    expect(lines.some((line) => line['type'] === 'user' && JSON.stringify(line).includes('<task-notification>'))).toBe(false)
    expect(lines.indexOf(notice!)).toBeGreaterThan(lines.indexOf(results[0]!))
  })

  it('--max-background-wait stops what still runs, says so, and fails the run', async () => {
    server.setScenario([toolUseReply('Bash', { command: 'sleep 30', description: 'Sleep long', run_in_background: true }, { id: 'toolu_sleep' }), textReply('Waiting.')])
    const { code, stdout, stderr } = await headless.sous(['--output-format', 'json', '--allowedTools', 'Bash', '--max-background-wait', '1', 'Sleep.'])
    expect(code).toBe(1)
    expect(withoutSandboxWarning(stderr)).toBe('sous: background work was still running after --max-background-wait 1 s and was stopped: command "Sleep long" (bash_1)\n')
    expect(JSON.parse(stdout)).toMatchObject({ type: 'result', subtype: 'error_during_execution', is_error: true, terminal_reason: 'background_wait_exceeded', result: 'Waiting.' })
    // Stopped, not delivered: no notification turn was started for it.
    expect(server.requests).toHaveLength(2)
    expect(server.failures).toEqual([])
  })

  it('text output prints each turn; a bad --max-background-wait is a usage error', async () => {
    server.setScenario([toolUseReply('Bash', { command: 'sleep 1', run_in_background: true }, { id: 'toolu_quick' }), textReply('Started.'), textReply('It finished.')])
    const { code, stdout } = await headless.sous(['--allowedTools', 'Bash', 'Start it.'])
    expect(code).toBe(0)
    expect(stdout).toBe('Started.\n\nIt finished.\n')
    const bad = await headless.sous(['--max-background-wait', 'soon', 'Start it.'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--max-background-wait must be a number of seconds/)
  })
})

/** stderr less the one warning a machine without bubblewrap prints for Bash (the pass without system tools). */
function withoutSandboxWarning(stderr: string): string {
  return stderr.replace(/^sous: warning: the OS sandbox is unavailable.*\n/m, '')
}
