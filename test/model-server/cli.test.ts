import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply } from './builders'

const cli = join(import.meta.dirname, 'cli.ts')
let dir: string
let child: ChildProcess | undefined

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sous-model-cli-'))
})
afterEach(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  }
  child = undefined
  await rm(dir, { recursive: true, force: true })
})

function run(args: string[]): ChildProcess {
  child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  return child
}

async function firstLine(proc: ChildProcess): Promise<string> {
  const lines = createInterface({ input: proc.stdout! })
  for await (const line of lines) return line
  throw new Error('no output')
}

describe('model server CLI', () => {
  it('serves a JSON scenario and reports what it recorded', async () => {
    const file = join(dir, 'scenario.json')
    await writeFile(file, JSON.stringify({ steps: [textReply('from a file')] }))
    const proc = run(['--scenario', file])
    const line = await firstLine(proc)
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/)
    const url = line.slice('listening on '.length)
    const response = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      body: JSON.stringify({ model: 'claude-sonnet-4-6', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }),
    })
    expect(await response.json()).toMatchObject({ content: [{ type: 'text', text: 'from a file' }] })
    const recorded = (await (await fetch(`${url}/_scripted/requests`)).json()) as { requests: unknown[]; failures: unknown[] }
    expect(recorded.requests).toHaveLength(1)
    expect(recorded.failures).toEqual([])
    const exit = new Promise<number | null>((resolve) => proc.once('exit', resolve))
    proc.kill('SIGTERM')
    expect(await exit).toBe(0)
  })

  it('refuses an invalid scenario file with a clear message', async () => {
    const file = join(dir, 'bad.json')
    await writeFile(file, JSON.stringify([{ reply: { content: [] }, error: { status: 500 } }]))
    const proc = run(['--scenario', file])
    let stderr = ''
    proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => proc.once('exit', resolve))
    expect(code).toBe(2)
    expect(stderr).toContain('step 0 must have exactly one of reply, error, midStreamError, drop')
  })
})
