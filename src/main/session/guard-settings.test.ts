import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readGuardSettings } from './guard-settings'

let base: string
let project: string
let home: string
const options = () => ({ sousHome: home, managedPath: join(base, 'managed.json') })
const write = (file: string, data: unknown): void => {
  mkdirSync(join(file, '..'), { recursive: true })
  writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data, null, 2))
}

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-guard-settings-'))
  project = join(base, 'project')
  home = join(base, 'home')
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

describe('guard settings', () => {
  it('defaults: no caps, the brake on at 5 and 8, thinking and effort unset', () => {
    expect(readGuardSettings(project, options())).toEqual({ budget: {}, loopBrake: { enabled: true, repeatedCalls: 5, idleRequests: 8 }, problems: [] })
  })

  it('a project may tighten a cap or the brake, never loosen them; only the user turns the brake off', () => {
    write(join(home, 'settings.json'), { budget: { sessionUsd: 5 }, loopBrake: { repeatedCalls: 4 } })
    write(join(project, '.claude', 'settings.json'), { budget: { sessionUsd: 50, projectUsd: 20 }, loopBrake: { enabled: false, repeatedCalls: 10 } })
    const read = readGuardSettings(project, options())
    expect(read.budget).toEqual({ sessionUsd: 5, projectUsd: 20 })
    expect(read.loopBrake).toEqual({ enabled: true, repeatedCalls: 4, idleRequests: 8 })
    write(join(home, 'settings.json'), { loopBrake: { enabled: false } })
    expect(readGuardSettings(project, options()).loopBrake.enabled).toBe(false)
  })

  it('refuses what is not a positive number, a level or a boolean, with file and line', () => {
    const file = join(project, '.claude', 'settings.local.json')
    write(file, '{\n  "effortLevel": "huge",\n  "alwaysThinkingEnabled": "yes",\n  "loopBrake": { "idleRequests": 2.5 },\n  "budget": 3\n}')
    const read = readGuardSettings(project, options())
    expect(read.problems).toEqual([
      `${file}:5:3: budget must be an object; the default applies`,
      `${file}:4:18: loopBrake.idleRequests must be a positive integer (got 2.5); the default applies`,
      `${file}:3:3: alwaysThinkingEnabled must be true or false (got "yes"); the default applies`,
      `${file}:2:3: effortLevel must be one of low, medium, high, xhigh, max; the default applies`,
    ])
    expect(read.loopBrake.idleRequests).toBe(8)
    expect(read.effort).toBeUndefined()
  })

  it('takes thinking and effort by precedence: local over project over user', () => {
    write(join(home, 'settings.json'), { effortLevel: 'max', alwaysThinkingEnabled: true })
    write(join(project, '.claude', 'settings.json'), { effortLevel: 'low' })
    const read = readGuardSettings(project, options())
    expect(read.effort).toBe('low')
    expect(read.thinking).toBe(true)
  })
})
