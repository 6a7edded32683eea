import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import type { AgentEvent } from '../shared/protocol/agent-event'
import type { Message, ToolResultBlock } from '../main/services/model/types'

// Plan mode headless: `sous -p --permission-mode plan` ends with the plan printed (and in JSON).
const server = useModelServer()

const headless = useHeadless(server)
const sous = (args: string[]) => headless.sous(args)

function resultOf(index: number): { text: string; isError: boolean } {
  const messages = server.requests[index + 1]!.body['messages'] as Message[]
  const block = (messages.at(-1)!.content as ToolResultBlock[])[0]!
  return { text: typeof block.content === 'string' ? block.content : JSON.stringify(block.content), isError: block.is_error === true }
}

const PLAN = '# Fix the greeting\n\n1. Change `hello` to `hi` in greeting.txt\n2. Run the tests'

describe('sous -p in plan mode', () => {
  it('reads, is refused a write, and ends with the plan printed and saved', async () => {
    const file = join(headless.project, 'greeting.txt')
    await writeFile(file, 'hello\n')
    server.setScenario([
      toolUseReply('Read', { file_path: file }),
      toolUseReply('Edit', { file_path: file, old_string: 'hello', new_string: 'hi' }),
      toolUseReply('ExitPlanMode', { plan: PLAN }),
      textReply('I have proposed a plan.'),
    ])
    const { code, stdout } = await sous(['--permission-mode', 'plan', 'Fix the greeting'])
    expect(code).toBe(0)
    expect(server.failures).toEqual([])
    expect(JSON.stringify((server.requests[0]!.body['messages'] as Message[])[0]!.content)).toContain('Plan mode is active.')
    expect(resultOf(1)).toMatchObject({ isError: true, text: expect.stringMatching(/Plan mode is active: only read-only tools may run, so Edit was not run/) })
    expect(resultOf(2)).toMatchObject({ isError: false, text: expect.stringMatching(/This run is headless, so nobody can approve the plan here: stop now and end your turn/) })
    expect(await readFile(file, 'utf8')).toBe('hello\n')
    expect(stdout).toBe(`I have proposed a plan.\n\n${PLAN}\n`)
  })

  it('puts the plan and its file in the JSON result', async () => {
    server.setScenario([toolUseReply('ExitPlanMode', { plan: PLAN }), textReply('Plan proposed.')])
    const { code, stdout } = await sous(['--permission-mode', 'plan', '--output-format', 'json', 'Plan it'])
    expect(code).toBe(0)
    const result = JSON.parse(stdout) as { plan: string; plan_file: string; session_id: string; result: string }
    expect(result).toMatchObject({ plan: PLAN, result: 'Plan proposed.', plan_file: join(headless.home, '.claude', 'plans', `${result.session_id}.md`) })
    expect(await readFile(result.plan_file, 'utf8')).toBe(`${PLAN}\n`)
  })

  it('refuses EnterPlanMode headless, unless the run bypasses permissions', async () => {
    server.setScenario([toolUseReply('EnterPlanMode', {}), textReply('ok')])
    expect((await sous(['start'])).code).toBe(0)
    expect(resultOf(0)).toEqual({ isError: true, text: expect.stringMatching(/^Plan mode was not entered: No one can approve entering plan mode in a headless run\./) })

    server.requests.length = 0
    server.setScenario([toolUseReply('EnterPlanMode', {}), toolUseReply('Write', { file_path: join(headless.project, 'x.txt'), content: 'x' }), textReply('ok')])
    const { stdout } = await sous(['--permission-mode', 'bypassPermissions', '--output-format', 'sous-events', 'start'])
    expect(resultOf(0).text).toMatch(/^Entered plan mode\./)
    expect(resultOf(1)).toMatchObject({ isError: true, text: expect.stringMatching(/Plan mode is active/) })
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as AgentEvent)
    expect(events.filter((event) => event.type === 'mode_change')).toMatchObject([{ mode: 'plan', previous: 'bypassPermissions' }])
  })
})
