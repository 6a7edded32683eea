import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply, toolUseReply } from '../../test/model-server'
import { useModelServer } from '../../test/model-server/vitest'
import { useHeadless } from '../../test/support/headless'
import type { Message, ToolResultBlock } from '../main/services/model/types'

// Claude Code 2.1.328 settings keys that change behaviour Sous has, through `sous -p` with a real
// settings file, real Bash on a PTY and the scripted server.
const server = useModelServer()
const headless = useHeadless(server, { inheritPath: true })

async function settings(content: unknown): Promise<void> {
  await mkdir(join(headless.project, '.claude'), { recursive: true })
  await writeFile(join(headless.project, '.claude', 'settings.json'), JSON.stringify(content))
}

function resultOf(index: number): string {
  const messages = server.requests[index]!.body['messages'] as Message[]
  const block = (messages.at(-1)!.content as ToolResultBlock[]).find((b) => b.type === 'tool_result')!
  return typeof block.content === 'string' ? block.content : JSON.stringify(block.content)
}

describe('sous -p with Claude Code 2.1.328 settings keys', () => {
  it('bashOutputMaxChars limits the inline output (clamped to 4000) and the rest is in a file the model can Read', async () => {
    await settings({ bashOutputMaxChars: 1000, someKeySousDoesNotKnow: { any: 'thing' }, permissions: { allow: ['Bash(seq *)'] } })
    server.setScenario([toolUseReply('Bash', { command: 'seq 1 50000' }), textReply('Long.')])
    const { code } = await headless.sous(['Count'])
    expect(code).toBe(0)
    const inline = resultOf(1)
    expect(inline.length).toBeGreaterThan(3_900)
    expect(inline.length).toBeLessThan(4_600)
    const file = /saved in (\S+);/.exec(inline)?.[1]
    expect((await readFile(file!, 'utf8')).trimEnd().split('\n')).toHaveLength(50_000)
  })

  it('autoCompactWindow is the window compaction works to; a bad value is ignored with the file still applying', async () => {
    await settings({ autoCompactWindow: 120_000 })
    server.setScenario([textReply('Hi.')])
    const run = await headless.sous(['--output-format', 'sous-events', 'Hi'])
    expect(run.code).toBe(0)
    const status = run.stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type: string; window?: number }).find((event) => event.type === 'context_status')
    expect(status?.window).toBe(120_000)
    await settings({ autoCompactWindow: -5, promptCacheTtl: '3d', permissions: { allow: ['Bash(true)'] } })
    server.setScenario([toolUseReply('Bash', { command: 'true' }, { id: 'toolu_true' }), textReply('Hi.')])
    const bad = await headless.sous(['--output-format', 'json', 'Hi'])
    expect((JSON.parse(bad.stdout) as { permission_denials: unknown[] }).permission_denials).toEqual([])
  })
})

describe('promptCacheTtl', () => {
  it('"1h" gives every breakpoint of the conversation\'s requests the one-hour lifetime; unset leaves the default', async () => {
    await settings({ promptCacheTtl: '1h' })
    server.setScenario([textReply('Hi.')])
    expect((await headless.sous(['Hi'])).code).toBe(0)
    const ttls = (body: Record<string, unknown>): unknown[] => JSON.stringify(body).match(/"cache_control":\{[^}]*\}/g) ?? []
    const marked = ttls(server.requests[0]!.body)
    expect(marked.length).toBeGreaterThanOrEqual(3)
    for (const mark of marked) expect(mark).toContain('"ttl":"1h"')
    await settings({})
    server.setScenario([textReply('Hi.')])
    expect((await headless.sous(['Hi'])).code).toBe(0)
    const plain = ttls(server.requests.at(-1)!.body)
    expect(plain.length).toBeGreaterThanOrEqual(3)
    for (const mark of plain) expect(mark).not.toContain('ttl')
  })
})
