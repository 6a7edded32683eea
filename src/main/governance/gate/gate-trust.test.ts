import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApprovalQueue } from '../approvals/queue'
import { SessionGrants } from '../decide/session'
import { createPermissionGate } from './gate'
import type { GateNotice } from './gate-settings'
import { HookRunner } from '../hooks/runner'
import { grantTrust, revokeTrust, trustStatus } from '../trust/trust'
import { DenialLog } from '../approvals/denials'

// The trust step at the gate, with real hook processes: what a cloned repository's settings can
// do before and after the user trusts the folder.
let base: string
let project: string
let sousHome: string
let queue: ApprovalQueue

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-gate-trust-'))
  project = join(base, 'project')
  sousHome = join(base, 'sous-home')
  mkdirSync(join(project, '.claude'), { recursive: true })
  mkdirSync(sousHome)
  queue = new ApprovalQueue({ projectRoot: project, sousHome, sessionGrants: new SessionGrants(project) })
})
afterEach(() => {
  queue.dispose()
  rmSync(base, { recursive: true, force: true })
})

function gate(notices: GateNotice[] = []) {
  return createPermissionGate({
    projectRoot: project,
    cwd: project,
    sousHome,
    home: join(base, 'home'),
    managedPath: join(base, 'managed.json'),
    mode: 'default',
    approvals: queue,
    hooks: new HookRunner({ hooks: [], sessionId: 's1', projectRoot: project }),
    sessionId: 's1',
    denials: new DenialLog(),
    onNotice: (n) => notices.push(n),
  })
}

const marker = (name: string) => join(base, name)
function hooksWriting(...events: string[]): void {
  const hooks = Object.fromEntries(events.map((event) => [event, [{ hooks: [{ type: 'command', command: `touch ${marker(event)}` }] }]]))
  writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ hooks }))
}

describe('the gate and the trust step', () => {
  it("runs none of an untrusted project's hooks, says why, and runs them once the folder is trusted", async () => {
    hooksWriting('SessionStart', 'UserPromptSubmit')
    const notices: GateNotice[] = []
    const first = gate(notices)
    await first.sessionStart('startup')
    await first.userPromptSubmit('hello')
    expect(existsSync(marker('SessionStart'))).toBe(false)
    expect(existsSync(marker('UserPromptSubmit'))).toBe(false)
    expect(notices).toEqual([expect.objectContaining({ level: 'warning', message: expect.stringContaining('not trusted') })])

    expect(grantTrust(project, sousHome, trustStatus(project, sousHome).fingerprint).ok).toBe(true)
    // The same live gate sees the trust on its next event (the trust file is part of its signature).
    await first.userPromptSubmit('again')
    expect(existsSync(marker('UserPromptSubmit'))).toBe(true)
    await gate().sessionStart('startup')
    expect(existsSync(marker('SessionStart'))).toBe(true)
  })

  it('does not run a hook a later change added (a git pull), nor after trust is revoked', async () => {
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Read'] } }))
    expect(grantTrust(project, sousHome, trustStatus(project, sousHome).fingerprint).ok).toBe(true)
    const live = gate()
    await live.sessionStart('startup')
    hooksWriting('UserPromptSubmit')
    await live.userPromptSubmit('after the pull')
    expect(existsSync(marker('UserPromptSubmit'))).toBe(false)

    expect(grantTrust(project, sousHome, trustStatus(project, sousHome).fingerprint).ok).toBe(true)
    expect(revokeTrust(project, sousHome)).toBeUndefined()
    await live.userPromptSubmit('after revoking')
    expect(existsSync(marker('UserPromptSubmit'))).toBe(false)
  })
})
