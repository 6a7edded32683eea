import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply, type JsonStep } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'

// `sous -p` with the budget guard, the loop brake, thinking and effort: the real CLI, model
// service and SDK against the scripted server, real files in temp folders.
// Nothing is cached (the prefix never reaches the minimum), so a task costs the same every time it runs.
const server = useModelServer({ minCacheTokens: 1_000_000_000 })
const headless = useHeadless(server)

interface Result {
  terminal_reason: string
  total_cost_usd: number
  num_turns: number
  usage: Record<string, number>
}

/** A task of `count` reads of different files, each a turn of its own, then an answer. */
async function readingTask(count: number): Promise<JsonStep[]> {
  const steps: JsonStep[] = []
  for (let index = 0; index < count; index++) {
    const file = join(headless.project, `notes-${index}.txt`)
    await writeFile(file, `${'some notes worth reading, line after line\n'.repeat(200)}`)
    steps.push(toolUseReply('Read', { file_path: file }, { text: `Reading part ${index}.` }))
  }
  steps.push(textReply('Read them all.'))
  return steps
}

describe('sous -p: output limit, thinking and effort', () => {
  it('asks for the model ceiling on the first request, with adaptive thinking and the --effort level', async () => {
    server.setScenario([textReply('Hello.')])
    const { code } = await headless.sous(['--output-format', 'json', '--effort', 'high', 'Say hello'])
    expect(code).toBe(0)
    const body = server.requests[0]!.body
    expect(body['max_tokens']).toBe(64000)
    // Headless asks for no thinking text, as Claude Code's -p does (the signature still comes back).
    expect(body['thinking']).toEqual({ type: 'adaptive', display: 'omitted' })
    expect(body['output_config']).toEqual({ effort: 'high' })
  })

  it('takes effortLevel and alwaysThinkingEnabled from the settings, and refuses a bad --effort', async () => {
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ effortLevel: 'low', alwaysThinkingEnabled: false }))
    server.setScenario([textReply('Hello.')])
    expect((await headless.sous(['Say hello'])).code).toBe(0)
    expect(server.requests[0]!.body['thinking']).toBeUndefined()
    expect(server.requests[0]!.body['output_config']).toEqual({ effort: 'low' })
    const bad = await headless.sous(['--effort', 'extreme', 'Say hello'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--effort must be one of low, medium, high, xhigh, max')
  })
})

describe('sous -p: the budget guard', () => {
  it('stops before the request that would cross --max-budget-usd: exit 1, budget_exceeded, spend at or below the cap', async () => {
    // What the whole task costs uncapped, request by request (the scripted server is deterministic).
    server.setScenario(await readingTask(8))
    const free = JSON.parse((await headless.sous(['--output-format', 'json', 'Read the notes'])).stdout) as Result
    expect(free.terminal_reason).toBe('completed')
    const total = free.total_cost_usd
    const uncapped = server.requests.length
    server.requests.length = 0

    const cap = total / 2
    server.setScenario(await readingTask(8))
    const run = await headless.sous(['--output-format', 'json', '--max-budget-usd', String(cap), 'Read the notes'])
    expect(run.code).toBe(1)
    const result = JSON.parse(run.stdout) as Result & { is_error: boolean; error: string }
    expect(result.terminal_reason).toBe('budget_exceeded')
    expect(result.is_error).toBe(true)
    expect(result.total_cost_usd).toBeGreaterThan(0)
    expect(result.total_cost_usd).toBeLessThanOrEqual(cap)
    expect(server.requests.length).toBeLessThan(uncapped)
    expect(result.error).toContain('session spending cap')
    expect(run.stderr).toContain('sous: budget_exceeded')
  })

  it('caps tokens with --max-tokens-budget, and warns at 80 % on stderr', async () => {
    server.setScenario(await readingTask(8))
    const free = JSON.parse((await headless.sous(['--output-format', 'json', 'Read the notes'])).stdout) as Result
    const tokens = Object.values(free.usage).reduce((sum, value) => sum + value, 0)
    server.requests.length = 0
    const cap = Math.floor(tokens * 0.6)
    server.setScenario(await readingTask(8))
    const run = await headless.sous(['--output-format', 'json', '--max-tokens-budget', String(cap), 'Read the notes'])
    expect(run.code).toBe(1)
    const result = JSON.parse(run.stdout) as Result
    expect(result.terminal_reason).toBe('budget_exceeded')
    expect(Object.values(result.usage).reduce((sum, value) => sum + value, 0)).toBeLessThanOrEqual(cap)
    expect(run.stderr).toMatch(/sous: warning: \d+ % of the session token cap/)
  })

  it('refuses a cap that is not a positive number with its file and line, says so once, and runs with the default', async () => {
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    const settings = join(headless.project, '.claude', 'settings.json')
    await writeFile(settings, '{\n  "budget": {\n    "sessionUsd": -5,\n    "sessionTokens": "lots"\n  }\n}\n')
    server.setScenario(await readingTask(2))
    const run = await headless.sous(['--output-format', 'json', 'Read the notes'])
    expect(run.code).toBe(0)
    expect((JSON.parse(run.stdout) as Result).terminal_reason).toBe('completed')
    expect(run.stderr).toContain(`${settings}:3:5: budget.sessionUsd must be a positive number (got -5); the default applies`)
    expect(run.stderr).toContain(`${settings}:4:5: budget.sessionTokens must be a positive number (got "lots"); the default applies`)
    expect(run.stderr.match(/budget\.sessionUsd/g)).toHaveLength(1)
  })

  it('a project cap counts the spend of earlier sessions of the project', async () => {
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    server.setScenario(await readingTask(2))
    const first = JSON.parse((await headless.sous(['--output-format', 'json', 'Read the notes'])).stdout) as Result
    // The project's cap is below what was already spent: the next session sends nothing.
    await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ budget: { projectUsd: first.total_cost_usd * 0.9 } }))
    server.requests.length = 0
    server.setScenario([textReply('never sent')])
    const run = await headless.sous(['--output-format', 'json', 'Again'])
    expect(run.code).toBe(1)
    expect((JSON.parse(run.stdout) as Result).terminal_reason).toBe('budget_exceeded')
    expect(server.requests).toHaveLength(0)
    server.setScenario([])
  })
})

describe('sous -p: the loop brake', () => {
  it('stops the fifth identical call in a row: exit 1, loop_detected', async () => {
    const file = join(headless.project, 'same.txt')
    await writeFile(file, 'the same file\n')
    const same = Array.from({ length: 8 }, () => toolUseReply('Read', { file_path: file }))
    server.setScenario([...same, textReply('never')])
    const run = await headless.sous(['--output-format', 'json', 'Read it'])
    expect(run.code).toBe(1)
    const result = JSON.parse(run.stdout) as Result & { error: string }
    expect(result.terminal_reason).toBe('loop_detected')
    expect(result.error).toContain('same Read call with the same input 5 times in a row')
    expect(server.requests).toHaveLength(5)
    server.setScenario([])
  })

  it('is configurable: loopBrake.repeatedCalls from the settings', async () => {
    await mkdir(join(headless.project, '.claude'), { recursive: true })
    await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify({ loopBrake: { repeatedCalls: 3 } }))
    const file = join(headless.project, 'same.txt')
    await writeFile(file, 'the same file\n')
    server.setScenario([...Array.from({ length: 4 }, () => toolUseReply('Read', { file_path: file })), textReply('never')])
    const run = await headless.sous(['--output-format', 'json', 'Read it'])
    expect((JSON.parse(run.stdout) as Result).terminal_reason).toBe('loop_detected')
    expect(server.requests).toHaveLength(3)
    server.setScenario([])
  })
})
