import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { useModelServer } from '../../../test/model-server/vitest'
import { sandboxScratch } from '../../../test/support/sandbox-scratch'
import { AppError } from '../../shared/ipc/result'
import { createEventHub } from '../base/event-hub'
import { grantTrust, trustStatus } from '../governance/trust/trust'
import { NodePtyService } from '../pty/node-pty-service'
import type { SessionRuntime } from './runtime'
import { createTestRuntime } from '../../../test/support/agents'

// The starting mode in the app's runtime (interactive, the trust step in force): the settings'
// defaultMode, what a repository may set before and after trust, and disableAutoMode.
const server = useModelServer()
let base: string
let project: string
let pty: NodePtyService
let runtime: SessionRuntime

beforeEach(() => {
  base = sandboxScratch('.sous-starting-mode-')
  project = join(base, 'project')
  mkdirSync(join(project, '.claude'), { recursive: true })
  mkdirSync(join(base, 'sous-home'))
  pty = new NodePtyService({ killGraceMs: 300 })
  runtime = createTestRuntime({ serverUrl: server.url, home: join(base, 'sous-home'), userHome: join(base, 'home'), hub: createEventHub(), pty })
})
afterEach(async () => {
  await runtime.dispose()
  await pty.dispose()
  rmSync(base, { recursive: true, force: true })
})

const projectSettings = (value: unknown) => writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify(value))
const trust = () => expect(grantTrust(project, join(base, 'sous-home'), trustStatus(project, join(base, 'sous-home')).fingerprint).ok).toBe(true)

describe('the starting mode of an app session', () => {
  it("is the user's defaultMode; a repository's acceptEdits waits for trust, its auto never applies", async () => {
    writeFileSync(join(base, 'sous-home', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'plan' } }))
    expect(await runtime.sessions.create(project)).toMatchObject({ mode: 'plan' })
    writeFileSync(join(base, 'sous-home', 'settings.json'), '{}')
    projectSettings({ permissions: { defaultMode: 'acceptEdits' } })
    expect((await runtime.sessions.create(project)).mode).toBe('default')
    trust()
    expect((await runtime.sessions.create(project)).mode).toBe('acceptEdits')
    projectSettings({ permissions: { defaultMode: 'auto' } })
    trust()
    expect((await runtime.sessions.create(project)).mode).toBe('default')
  })

  it('disableAutoMode: the session says so, and switching to auto is refused', async () => {
    writeFileSync(join(base, 'sous-home', 'settings.json'), JSON.stringify({ permissions: { defaultMode: 'auto', disableAutoMode: 'disable' } }))
    const created = await runtime.sessions.create(project)
    expect(created).toMatchObject({ mode: 'default', autoModeOff: true })
    const refused = await runtime.sessions.setMode(created.sessionId, 'auto').catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(AppError)
    expect((refused as AppError).code).toBe('UNAVAILABLE')
    await runtime.sessions.setMode(created.sessionId, 'plan')
    expect(runtime.sessions.permissionMode(created.sessionId)).toBe('plan')
  })
})
