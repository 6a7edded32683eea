import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadInstructionFiles } from './claude-md'
import { importPaths, InstructionBudget, MAX_IMPORT_HOPS } from './instruction-files'
import { NestedInstructions, nestedInstructionsReminder } from './nested-instructions'

let home: string
let project: string
let outside: string
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'sous-md-home-'))
  project = await mkdtemp(join(tmpdir(), 'sous-md-project-'))
  outside = await mkdtemp(join(tmpdir(), 'sous-md-outside-'))
})
afterEach(async () => {
  for (const dir of [home, project, outside]) await rm(dir, { recursive: true, force: true })
})

describe('@path imports', () => {
  it('finds references in prose, not in code or e-mail addresses', () => {
    const text = ['See @README and @docs/guide.md.', 'Mail me at someone@example.com', '`@not/this`', '```', '@nor/this', '```', '@~/personal.md'].join('\n')
    expect(importPaths(text)).toEqual(['README', 'docs/guide.md', '~/personal.md'])
  })

  it(`follows imports up to ${MAX_IMPORT_HOPS} hops, each file once, and skips a cycle`, async () => {
    await writeFile(join(project, 'CLAUDE.md'), 'Root rules. @hop1.md')
    for (let hop = 1; hop <= 7; hop++) await writeFile(join(project, `hop${hop}.md`), `Rule ${hop}. @hop${hop + 1}.md${hop === 2 ? ' @CLAUDE.md' : ''}`)
    const { files, notes } = await loadInstructionFiles(project, home)
    expect(files.map((file) => file.path.slice(project.length + 1))).toEqual(['CLAUDE.md', 'hop1.md', 'hop2.md', 'hop3.md', 'hop4.md', 'hop5.md'])
    expect(files[1]).toMatchObject({ scope: 'project', importedBy: join(project, 'CLAUDE.md') })
    expect(notes.some((note) => note.includes('a cycle'))).toBe(true)
    expect(notes.some((note) => note.includes(`more than ${MAX_IMPORT_HOPS} hops`))).toBe(true)
  })

  it('never reads a project import, or a project CLAUDE.md, that leads outside the project', async () => {
    await writeFile(join(outside, 'secret.txt'), 'TOP SECRET')
    await writeFile(join(project, 'CLAUDE.md'), `Rules. @${join(outside, 'secret.txt')} @../${outside.split('/').pop()}/secret.txt @linked.md`)
    await symlink(join(outside, 'secret.txt'), join(project, 'linked.md'))
    await mkdir(join(project, '.claude'))
    await symlink(join(outside, 'secret.txt'), join(project, '.claude', 'CLAUDE.md'))
    const { files, notes } = await loadInstructionFiles(project, home)
    expect(files.map((file) => file.content).join('\n')).not.toContain('TOP SECRET')
    expect(notes.filter((note) => note.includes('leads outside the project'))).toHaveLength(4)
  })

  it('lets the user’s own CLAUDE.md import from anywhere, and caps the total with a note', async () => {
    await mkdir(join(home, '.claude'))
    await writeFile(join(outside, 'style.md'), 'Prefer tabs.')
    await writeFile(join(home, '.claude', 'CLAUDE.md'), `Personal. @${join(outside, 'style.md')}`)
    await writeFile(join(project, 'CLAUDE.md'), 'x'.repeat(5_000))
    const budget = new InstructionBudget(3_000)
    const { files, notes } = await loadInstructionFiles(project, home, budget)
    expect(files.map((file) => file.content).join('\n')).toContain('Prefer tabs.')
    const projectFile = files.find((file) => file.path === join(project, 'CLAUDE.md'))!
    expect(projectFile.truncated).toBe(true)
    expect(projectFile.content).toContain('truncated')
    expect(notes).toEqual([])
  })
})

describe('subfolder CLAUDE.md files', () => {
  it('load when the agent first touches a file below them, each once, and never for files outside the project', async () => {
    await mkdir(join(project, 'packages', 'api', 'src'), { recursive: true })
    await writeFile(join(project, 'packages', 'CLAUDE.md'), 'Packages rule.')
    await writeFile(join(project, 'packages', 'api', 'CLAUDE.md'), 'API rule. @conventions.md')
    await writeFile(join(project, 'packages', 'api', 'conventions.md'), 'Use zod.')
    await writeFile(join(project, 'packages', 'api', 'CLAUDE.local.md'), 'My local API rule.')
    const nested = new NestedInstructions(project, new InstructionBudget(), home)
    const found = nested.onFileTouched(join(project, 'packages', 'api', 'src', 'index.ts'))
    expect(found.map((file) => file.content)).toEqual(['Packages rule.', 'API rule. @conventions.md', 'Use zod.', 'My local API rule.'])
    expect(found.every((file) => file.scope === 'subfolder')).toBe(true)
    expect(nested.onFileTouched(join(project, 'packages', 'api', 'src', 'other.ts'))).toEqual([])
    expect(nested.onFileTouched(join(outside, 'x.ts'))).toEqual([])
    expect(nested.onFileTouched(join(project, 'top-level.ts'))).toEqual([])
    const reminder = nestedInstructionsReminder(found, join(project, 'packages', 'api', 'src', 'index.ts'), project)
    expect(reminder).toContain('Instructions for files under packages/api/src')
    expect(reminder).toContain('API rule.')
  })
})
