import { mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { McpApprovals } from './approvals'
import { McpChoices } from './choices'
import type { McpServerDefinition } from './config'
import { projectKey, readPerProjectFile, writePerProjectFile } from './per-project-file'

let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'sous-per-project-'))
})
afterEach(() => rmSync(home, { recursive: true, force: true }))

describe('per-project files', () => {
  it('reads a missing file as no projects, and what was written back, readable by the user alone', () => {
    const file = join(home, 'nested', 'choices.json')
    expect(readPerProjectFile(file)).toEqual({ ok: true, projects: {} })
    writePerProjectFile(file, { '/a': { x: 1 } })
    expect(readPerProjectFile(file)).toEqual({ ok: true, projects: { '/a': { x: 1 } } })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, projects: { '/a': { x: 1 } } })
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it('reports a file it cannot parse instead of reading it as empty', () => {
    const file = join(home, 'broken.json')
    writeFileSync(file, '{ not json')
    expect(readPerProjectFile(file)).toMatchObject({ ok: false, error: expect.stringContaining('is not valid') })
    writeFileSync(file, '{"projects": []}')
    expect(readPerProjectFile(file)).toMatchObject({ ok: false, error: expect.stringContaining('no "projects" object') })
  })

  it('keys a project by its real path', () => {
    const link = join(home, 'link')
    symlinkSync(home, link)
    expect(projectKey(link)).toBe(projectKey(home))
    expect(projectKey(join(home, 'missing'))).toBe(join(home, 'missing'))
  })

  it('approvals and choices fail closed on a broken file and never overwrite it', () => {
    const server = { name: 'docs', fingerprint: 'f1' } as McpServerDefinition
    const approvals = new McpApprovals(home)
    expect(approvals.approve(home, server)).toBeUndefined()
    expect(approvals.isApproved(join(home, '.'), server)).toBe(true)
    writeFileSync(join(home, 'mcp-approvals.json'), 'garbage')
    expect(approvals.isApproved(home, server)).toBe(false)
    expect(approvals.approve(home, server)).toContain('is not valid')
    expect(readFileSync(join(home, 'mcp-approvals.json'), 'utf8')).toBe('garbage')

    const choices = new McpChoices(home)
    expect(choices.set(home, { server: 'docs', tool: 'search', enabled: false })).toBeUndefined()
    expect([...choices.offIn(home).tools]).toHaveLength(1)
    writeFileSync(join(home, 'mcp-choices.json'), 'garbage')
    expect(choices.offIn(home).tools.size).toBe(0)
    expect(choices.set(home, { server: 'docs', enabled: false })).toContain('is not valid')
    expect(readFileSync(join(home, 'mcp-choices.json'), 'utf8')).toBe('garbage')
  })
})
