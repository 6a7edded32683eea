import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { skillTool } from '../../tools/skill'
import { ApprovalQueue } from '../approvals/queue'
import { UnattendedAnswerer } from '../approvals/answerer'
import { SessionGrants } from '../decide/session'
import { HookRunner } from '../hooks/runner'
import { createPermissionGate } from './gate'
import { DenialLog } from '../approvals/denials'

// Claude Code's `Skill(name)` rules: deny and ask rules apply to the Skill tool by skill name.
let base: string
let project: string
let queue: ApprovalQueue

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-gate-skill-'))
  project = join(base, 'project')
  mkdirSync(join(project, '.claude'), { recursive: true })
})
afterEach(() => {
  queue.dispose()
  rmSync(base, { recursive: true, force: true })
})

function gateWith(permissions: Record<string, string[]>, headless = true) {
  writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ permissions }))
  queue = new ApprovalQueue({ projectRoot: project, sousHome: join(base, 'sous-home'), sessionGrants: new SessionGrants(project) })
  return createPermissionGate({
    projectRoot: project,
    cwd: () => project,
    sousHome: join(base, 'sous-home'),
    home: join(base, 'home'),
    managedPath: join(base, 'managed.json'),
    mode: 'default',
    projectTrust: 'assume',
    approvals: headless ? new UnattendedAnswerer(queue.sessionGrants) : queue,
    hooks: new HookRunner({ hooks: [], sessionId: 's1', projectRoot: project }),
    sessionId: 's1',
    denials: new DenialLog(),
  })
}

describe('Skill(name) rules', () => {
  it('deny a named skill (with any arguments) and leave the others alone', async () => {
    const gate = gateWith({ deny: ['Skill(deploy *)', 'Skill(db-*)'] })
    const denied = await gate.canUseTool(skillTool, { skill: 'deploy', args: 'production' }, 't1')
    expect(denied.behavior === 'deny' && denied.message).toMatch(/Skill\(deploy \*\)/)
    expect((await gate.canUseTool(skillTool, { skill: 'db-migrate' }, 't2')).behavior).toBe('deny')
    expect(await gate.canUseTool(skillTool, { skill: 'review' }, 't3')).toEqual({ behavior: 'allow' })
    // A name that merely starts like a denied one is another skill.
    expect(await gate.canUseTool(skillTool, { skill: 'deployment-notes' }, 't4')).toEqual({ behavior: 'allow' })
  })

  it('an ask rule stops a skill that is read-only otherwise (headless: refused, nobody to ask)', async () => {
    const gate = gateWith({ ask: ['Skill(release)'] })
    const asked = await gate.canUseTool(skillTool, { skill: 'release' }, 't1')
    expect(asked.behavior).toBe('deny')
    expect(await gate.canUseTool(skillTool, { skill: 'lint' }, 't2')).toEqual({ behavior: 'allow' })
  })

  it('the rules-only check (injected commands, includes) sees the same verdicts', async () => {
    const gate = gateWith({ deny: ['Skill(deploy)'] })
    expect((await gate.check(skillTool, { skill: 'deploy' })).behavior).toBe('deny')
    expect((await gate.check(skillTool, { skill: 'lint' })).behavior).toBe('allow')
  })
})
