import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { textReply } from '../../../../test/model-server'
import { useModelServer } from '../../../../test/model-server/vitest'
import type { EventPayload } from '../../../shared/ipc/contract'
import { createEventHub } from '../../base/event-hub'
import { NodePtyService } from '../../pty/node-pty-service'
import { type SessionRuntime } from '../../runtime/runtime'
import { createTestRuntime } from '../../../../test/support/agents'

// The hook inspector through the desktop runtime: configured hooks with their files and whether
// they run (a project's own wait for trust), and real runs of a real hook script, live and listed.
const server = useModelServer()

let base: string
let project: string
let runtime: SessionRuntime
let pty: NodePtyService
const ran: Array<EventPayload<'hooks.ran'>> = []

async function file(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
}

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'sous-hook-inspector-'))
  project = join(base, 'project')
  await mkdir(project)
  ran.length = 0
  const hub = createEventHub()
  hub.subscribe((channel, payload) => channel === 'hooks.ran' && ran.push(payload as EventPayload<'hooks.ran'>))
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createTestRuntime({ serverUrl: server.url, home: join(base, 'sous-home'), userHome: join(base, 'home'), hub, pty, env: { PATH: process.env['PATH'] } })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  await rm(base, { recursive: true, force: true })
})

describe('the hook inspector', () => {
  it('lists hooks per event with their files, says which wait for trust, and shows each run', async () => {
    const script = join(base, 'greet.sh')
    await file(script, '#!/bin/sh\ncat >/dev/null\necho "hello from the hook"\necho "a warning" >&2\nexit 1\n')
    await chmod(script, 0o755)
    const userSettings = join(base, 'sous-home', 'settings.json')
    await file(userSettings, JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: script }] }] } }))
    await file(join(project, '.claude', 'settings.json'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo project-hook' }] }] } }))

    const before = runtime.extensions.hooks(project)
    expect(before.hooks).toEqual([
      { event: 'UserPromptSubmit', command: script, source: 'user', file: userSettings, applies: true },
      expect.objectContaining({ event: 'PreToolUse', matcher: 'Bash', command: 'echo project-hook', source: 'project', applies: false, reason: expect.stringContaining('trust') }),
    ])
    expect(before.runs).toEqual([])

    server.setScenario([textReply('Hi.')])
    const { sessionId } = await runtime.sessions.create(project)
    await runtime.sessions.run(sessionId, 'hello')
    const runs = runtime.extensions.hooks(project).runs
    expect(runs).toEqual([
      expect.objectContaining({ sessionId, event: 'UserPromptSubmit', command: script, source: userSettings, exitCode: 1, timedOut: false, stdout: 'hello from the hook\n', stderr: 'a warning\n' }),
    ])
    expect(JSON.parse(runs[0]!.input)).toMatchObject({ hook_event_name: 'UserPromptSubmit', prompt: 'hello', session_id: sessionId })
    expect(runs[0]!.durationMs).toBeGreaterThanOrEqual(0)
    expect(ran).toEqual([{ projectPath: project, run: runs[0] }])
    // Another project's inspector does not list this one's runs.
    const other = join(base, 'other')
    await mkdir(other)
    expect(runtime.extensions.hooks(other).runs).toEqual([])
  })
})
