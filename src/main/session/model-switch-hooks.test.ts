import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { textReply } from '../../../test/model-server'
import { useModelServer } from '../../../test/model-server/vitest'
import { useAgentWorld } from '../../../test/support/agents'
import type { AppError } from '../../shared/ipc/result'

// PreModelSwitch / PostModelSwitch (Claude Code 2.1.328) around `/model`, with real hook scripts,
// through the runtime as `sous -p` builds it and the real SDK against the scripted server.
const server = useModelServer()
const world = useAgentWorld(() => server.url, { answerer: 'unattended' })

function hooks(config: Record<string, string>): void {
  mkdirSync(join(world.project, '.claude'), { recursive: true })
  const entries = Object.entries(config).map(([event, command]) => [event, [{ hooks: [{ type: 'command', command }] }]])
  writeFileSync(join(world.project, '.claude', 'settings.json'), JSON.stringify({ hooks: Object.fromEntries(entries) }))
}

function script(name: string, body: string): string {
  const file = join(world.base, name)
  writeFileSync(file, `#!/bin/bash\n${body}\n`)
  chmodSync(file, 0o755)
  return file
}

describe('model switch hooks', () => {
  it('PreModelSwitch and PostModelSwitch hear the switch (from, to, what was asked, the context size)', async () => {
    const log = join(world.base, 'switch.log')
    const record = script('record.sh', `cat >> ${log}; echo >> ${log}`)
    hooks({ PreModelSwitch: record, PostModelSwitch: record })
    server.setScenario([textReply('One.'), textReply('Two.')])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    await world.runtime.sessions.run(sessionId, 'first')
    expect(await world.runtime.sessions.setModel(sessionId, 'opus')).toEqual({ model: 'claude-opus-4-6' })
    await world.runtime.sessions.run(sessionId, 'second')
    const inputs = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(inputs.map((input) => input['hook_event_name'])).toEqual(['PreModelSwitch', 'PostModelSwitch'])
    expect(inputs[0]).toMatchObject({ from_model: 'claude-sonnet-4-6', to_model: 'claude-opus-4-6', requested_model: 'opus', source: 'command', session_id: sessionId })
    expect(inputs[0]!['context_tokens']).toBeGreaterThan(0)
    expect(server.requests.map((request) => request.body['model'])).toEqual(['claude-sonnet-4-6', 'claude-opus-4-6'])
  })

  it('a PreModelSwitch hook that exits 2 keeps the model, with its reason', async () => {
    const post = join(world.base, 'post.log')
    hooks({ PreModelSwitch: script('keep.sh', 'cat > /dev/null; echo "opus is too expensive here" >&2; exit 2'), PostModelSwitch: script('post.sh', `cat > ${post}`) })
    server.setScenario([textReply('Still sonnet.')])
    const { sessionId } = await world.runtime.sessions.create(world.project)
    const refused = (await world.runtime.sessions.setModel(sessionId, 'opus').catch((error: unknown) => error)) as AppError
    expect(refused.code).toBe('CONFLICT')
    expect(refused.message).toContain('opus is too expensive here')
    await world.runtime.sessions.run(sessionId, 'go')
    expect(server.requests.map((request) => request.body['model'])).toEqual(['claude-sonnet-4-6'])
    const { existsSync } = await import('node:fs')
    expect(existsSync(post)).toBe(false)
  })
})
