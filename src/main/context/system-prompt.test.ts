import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_INSTRUCTION_CHARS } from './claude-md'
import { STATIC_SYSTEM_PROMPT } from './static-prompt'
import { assembleSystemPrompt, buildSystemPrompt } from './system-prompt'

let home: string
let project: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-ctx-home-'))
  project = await mkdtemp(join(tmpdir(), 'sous-ctx-project-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
  await rm(project, { recursive: true, force: true })
})

describe('buildSystemPrompt', () => {
  it('has a static block shared by everyone and a dynamic block with the environment', async () => {
    const now = new Date(2026, 0, 15, 10)
    const a = await buildSystemPrompt({ cwd: project, projectRoot: project, homeDir: home, now })
    const b = await buildSystemPrompt({ cwd: home, projectRoot: home, homeDir: project, now })
    expect(a).toHaveLength(2)
    expect(a[0]).toEqual({ type: 'text', text: STATIC_SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } })
    expect(a[0]).toEqual(b[0])
    expect(a[1]!.cache_control).toEqual({ type: 'ephemeral' })
    expect(a[1]!.text).toContain(`Working directory: ${project}`)
    expect(a[1]!.text).toContain("Today's date: 2026-01-15")
    expect(a[1]!.text).toContain('Is a git repository: no')
    expect(a[1]!.text).not.toContain('CLAUDE.md')
  })

  it('includes the CLAUDE.md files in priority order and notices a git repo', async () => {
    await mkdir(join(home, '.claude'))
    await mkdir(join(project, '.claude'))
    await mkdir(join(project, '.git'))
    await writeFile(join(home, '.claude', 'CLAUDE.md'), 'USER RULE')
    await writeFile(join(project, 'CLAUDE.md'), 'PROJECT RULE')
    await writeFile(join(project, '.claude', 'CLAUDE.md'), 'DOT CLAUDE RULE')
    await writeFile(join(project, 'CLAUDE.local.md'), 'LOCAL RULE')
    const [, dynamic] = await buildSystemPrompt({ cwd: project, projectRoot: project, homeDir: home })
    const text = dynamic!.text
    const order = ['USER RULE', 'PROJECT RULE', 'DOT CLAUDE RULE', 'LOCAL RULE'].map((rule) => text.indexOf(rule))
    expect(order.every((position) => position > 0)).toBe(true)
    expect([...order].sort((x, y) => x - y)).toEqual(order)
    expect(text).toContain('Is a git repository: yes')
  })

  it('cuts a runaway instruction file', async () => {
    await writeFile(join(project, 'CLAUDE.md'), 'y'.repeat(MAX_INSTRUCTION_CHARS + 500))
    const [, dynamic] = await buildSystemPrompt({ cwd: project, projectRoot: project, homeDir: home })
    expect(dynamic!.text).toContain('truncated')
    expect(dynamic!.text.length).toBeLessThan(MAX_INSTRUCTION_CHARS + 2000)
  })

  it('places sections other features provide (the memory index) after the CLAUDE.md files, and names every part for the context view', async () => {
    await writeFile(join(project, 'CLAUDE.md'), 'PROJECT RULE')
    const prompt = await assembleSystemPrompt({ cwd: project, projectRoot: project, homeDir: home, sections: [{ name: 'Memory index', text: '# Memory\n- user prefers tabs', path: '/m/MEMORY.md' }], git: false })
    const text = prompt.blocks[1]!.text
    expect(text.indexOf('user prefers tabs')).toBeGreaterThan(text.indexOf('PROJECT RULE'))
    expect(prompt.parts.instructions.map((file) => file.path)).toEqual([join(project, 'CLAUDE.md')])
    expect(prompt.parts.sections.map((section) => section.name)).toEqual(['Memory index'])
    expect(prompt.staticText).toBe(STATIC_SYSTEM_PROMPT)
  })
})
