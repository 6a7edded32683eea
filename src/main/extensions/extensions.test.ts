import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { splitArguments, substituteArguments } from './arguments'
import { renderSkillCatalog } from './catalog'
import { parse } from 'yaml'
import { listField, parseFrontmatter as parseWith } from './frontmatter'
import { loadExtensions } from './load'
import { renderTemplate, type RenderCapabilities } from './render'
import { expandSlash, parseSlash } from './slash'
import type { SkillDefinition } from './types'

const parseFrontmatter = (text: string) => parseWith(text, parse)

describe('frontmatter', () => {
  it('splits YAML from the body and reports bad YAML with its position', () => {
    expect(parseFrontmatter('---\ndescription: Hi\n---\nBody\n')).toEqual({ ok: true, data: { description: 'Hi' }, body: 'Body\n' })
    expect(parseFrontmatter('No frontmatter')).toEqual({ ok: true, data: {}, body: 'No frontmatter' })
    const bad = parseFrontmatter('---\ndescription: "unclosed\n---\nBody')
    expect(bad.ok).toBe(false)
    expect(!bad.ok && bad.error).toMatch(/^invalid YAML frontmatter: .*line 2/)
    // Loose values YAML rejects are read as text, as Claude Code does.
    expect(parseFrontmatter('---\nargument-hint: [file] [format]\ndescription: Fix: the bug\n---\nB')).toEqual({ ok: true, data: { 'argument-hint': '[file] [format]', description: 'Fix: the bug' }, body: 'B' })
    expect(parseFrontmatter('---\n- a list\n---\n')).toMatchObject({ ok: false, error: expect.stringContaining('mapping') })
    expect(parseFrontmatter('---\nname: x\n')).toMatchObject({ ok: false, error: expect.stringContaining('closing') })
  })

  it('reads tool lists as YAML lists or as text separated outside parentheses', () => {
    expect(listField({ t: 'Bash(git add *) Bash(git commit *), Read' }, 't').value).toEqual(['Bash(git add *)', 'Bash(git commit *)', 'Read'])
    expect(listField({ t: ['Read', 'Grep'] }, 't').value).toEqual(['Read', 'Grep'])
    expect(listField({ t: 3 }, 't').problem).toMatch(/text or a list/)
  })
})

describe('arguments', () => {
  it('substitutes $ARGUMENTS, $ARGUMENTS[N], $N (0-based) and named arguments', () => {
    expect(substituteArguments('Fix $ARGUMENTS now', '123 urgent', [])).toBe('Fix 123 urgent now')
    expect(substituteArguments('Move $0 from $ARGUMENTS[1] to $2', 'Search React "Vue 3"', [])).toBe('Move Search from React to Vue 3')
    expect(substituteArguments('Issue $issue on $branch ($2)', '42 main', ['issue', 'branch'])).toBe('Issue 42 on main ($2)')
    expect(substituteArguments('Costs \\$1.00, not $0', 'x', [])).toBe('Costs $1.00, not x')
    expect(substituteArguments('Name: $who.', '', ['who'])).toBe('Name: .')
  })

  it('appends the arguments when the text has no placeholder', () => {
    expect(substituteArguments('Review the code.\n', 'src/a.ts', [])).toBe('Review the code.\n\nARGUMENTS: src/a.ts')
    expect(substituteArguments('Review the code.', '', [])).toBe('Review the code.')
  })

  it('splits like a shell', () => {
    expect(splitArguments(`a "b c" 'd e' f\\ g`)).toEqual(['a', 'b c', 'd e', 'f\\', 'g'])
    expect(splitArguments('"" x')).toEqual(['', 'x'])
  })
})

describe('loadExtensions', () => {
  let root: string
  let project: string
  let home: string
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'sous-ext-'))
    project = join(root, 'project')
    home = join(root, 'home')
  })
  afterEach(() => rm(root, { recursive: true, force: true }))

  async function file(path: string, text: string): Promise<void> {
    await mkdir(join(path, '..'), { recursive: true })
    await writeFile(path, text)
  }

  it('loads skills and commands, reports malformed files, and lets the user shadow the project', async () => {
    await file(join(project, '.claude/skills/deploy/SKILL.md'), '---\ndescription: Project deploy\n---\nDeploy.')
    await file(join(home, '.claude/skills/deploy/SKILL.md'), '---\ndescription: My deploy\nallowed-tools: Bash(make deploy)\ncontext: fork\n---\nMine.')
    await file(join(project, '.claude/skills/lint/SKILL.md'), '---\nname: Lint helper\nwhen_to_use: after edits\ndisable-model-invocation: yes\n---\n# Lint\n\nRuns the linter over changed files.')
    await file(join(project, '.claude/skills/broken/SKILL.md'), '---\ndescription: "oops\n---\n')
    await mkdir(join(project, '.claude/skills/empty'), { recursive: true })
    await file(join(project, '.claude/commands/review.md'), '---\ndescription: Review\nargument-hint: [file]\nmodel: inherit\n---\nReview $ARGUMENTS')
    await file(join(project, '.claude/commands/frontend/component.md'), 'Make a component named $0.')
    await file(join(project, '.claude/commands/deploy.md'), 'A command shadowed by the skill.')
    await file(join(project, '.claude/commands/bad name.md'), 'x')
    await symlink(join(project, '.claude/skills/lint'), join(project, '.claude/skills/lint-again'))
    const catalog = await loadExtensions({ projectRoot: project, userHome: home })
    expect(catalog.skills.map((skill) => [skill.name, skill.source])).toEqual([
      ['deploy', 'user'],
      ['lint', 'project'],
    ])
    expect(catalog.skills[0]).toMatchObject({ description: 'My deploy', allowedTools: ['Bash(make deploy)'], fork: true, userInvocable: true })
    expect(catalog.skills[1]).toMatchObject({ displayName: 'Lint helper', description: 'Runs the linter over changed files.', whenToUse: 'after edits', disableModelInvocation: true })
    expect(catalog.commands.map((command) => command.name)).toEqual(['component', 'review'])
    expect(catalog.commands[1]).toMatchObject({ argumentHint: '[file]', description: 'Review' })
    expect(catalog.commands[1]!.model).toBeUndefined()
    const messages = catalog.problems.map((problem) => `${problem.level} ${problem.file.slice(project.length + 1)}: ${problem.message}`)
    expect(messages).toEqual([
      expect.stringMatching(/^error \.claude\/skills\/broken\/SKILL\.md: invalid YAML frontmatter/),
      'error .claude/skills/empty/SKILL.md: the skill folder has no SKILL.md',
      expect.stringMatching(/^warning \.claude\/skills\/deploy\/SKILL\.md: not used: the user skill "deploy"/),
      expect.stringMatching(/^error \.claude\/commands\/bad name\.md: the file name "bad name" cannot be a command name/),
      expect.stringMatching(/^warning \.claude\/commands\/deploy\.md: not used: the user skill "deploy"/),
    ])
  })
})

function skill(name: string, description: string, extra: Partial<SkillDefinition> = {}): SkillDefinition {
  return { kind: 'skill', name, source: 'project', file: `/s/${name}/SKILL.md`, dir: `/s/${name}`, description, argumentNames: [], allowedTools: [], body: '', displayName: name, disableModelInvocation: false, userInvocable: true, fork: false, ...extra }
}

describe('renderSkillCatalog', () => {
  it('lists model-invocable skills, sanitized, and shortens descriptions to fit the budget', () => {
    const catalog = renderSkillCatalog([skill('a', 'Use <b>bold</b>\u0007 moves'), skill('hidden', 'x', { disableModelInvocation: true })])
    expect(catalog).toContain('- a: Use &lt;b&gt;bold&lt;/b&gt; moves')
    expect(catalog).not.toContain('hidden')
    expect(renderSkillCatalog([skill('hidden', 'x', { disableModelInvocation: true })])).toBe('')
    const many = Array.from({ length: 40 }, (_, index) => skill(`skill-${index}`, 'word '.repeat(200)))
    const small = renderSkillCatalog(many, 3000)
    expect(small.length).toBeLessThanOrEqual(3000)
    for (let index = 0; index < 40; index++) expect(small).toContain(`- skill-${index}`)
    expect(small).toContain('…')
  })
})

describe('renderTemplate and expandSlash', () => {
  const ran: string[] = []
  const capabilities: RenderCapabilities = {
    async runShell(command) {
      ran.push(command)
      if (command.startsWith('deny')) return { ok: false, denied: true, message: 'Bash needs approval' }
      if (command.startsWith('fail')) return { ok: false, denied: false, message: 'exit code 1\n[stderr] boom' }
      return { ok: true, output: `out(${command}) !\`nested\`` }
    },
    async readFile(path) {
      if (path === 'notes.md') return { ok: true, path: '/p/notes.md', text: 'the notes' }
      if (path === 'secret.txt') return { ok: false, message: 'reading it needs approval' }
      return undefined
    },
  }
  const context = { args: 'v2', sessionId: 's1', projectDir: '/p', signal: new AbortController().signal }

  it('injects shell output once, in order, and never re-scans it; includes @files', async () => {
    ran.length = 0
    const template = skill('t', '', { body: 'Version: !`git tag $0`\n```!\nnode -v\n```\nSee @notes.md and @secret.txt and @someone. Dir ${CLAUDE_SKILL_DIR}' })
    const result = await renderTemplate(template, context, capabilities)
    expect(ran).toEqual(['git tag v2', 'node -v'])
    expect(result).toEqual({
      ok: true,
      text: 'Version: out(git tag v2) !`nested`\nout(node -v) !`nested`\nSee @notes.md and @secret.txt and @someone. Dir /s/t\n\n<file path="/p/notes.md">\nthe notes\n</file>\n\n[@secret.txt was not included: reading it needs approval]',
    })
    expect(await renderTemplate(skill('t', '', { body: 'a !`deny rm -rf x` b' }), context, capabilities)).toEqual({
      ok: false,
      error: 'Shell command permission check failed for pattern "!`deny rm -rf x`": Bash needs approval',
    })
    expect(await renderTemplate(skill('t', '', { body: 'KEY=!`fail` is literal; !`fail now`' }), context, capabilities)).toMatchObject({ ok: false, error: expect.stringMatching(/^Shell command failed for pattern "!`fail now`": exit code 1/) })
  })

  it('expands /name for skills, commands and MCP prompts, and leaves anything else alone', async () => {
    expect(parseSlash('/review  src/a.ts  ')).toEqual({ name: 'review', args: 'src/a.ts' })
    expect(parseSlash('/usr/bin is a folder')).toBeUndefined()
    const catalog = {
      skills: [skill('deploy', 'd', { body: 'Deploy $ARGUMENTS', allowedTools: ['Bash(make *)'], model: 'claude-haiku-4-5' }), skill('background', 'b', { userInvocable: false })],
      commands: [{ kind: 'command' as const, name: 'review', source: 'user' as const, file: '/u/review.md', description: '', argumentNames: [], allowedTools: [], fork: false, body: 'Review it.' }],
      problems: [],
    }
    const prompts = [{ name: 'mcp__srv__review', server: 'srv', prompt: 'review', arguments: [{ name: 'file', required: true }, { name: 'focus', required: false }] }]
    const got: Array<Record<string, string>> = []
    const slash = (text: string) =>
      expandSlash(text, { catalog, mcpPrompts: prompts, getMcpPrompt: async (_command, args) => (got.push(args), `Please review ${args['file']}`), capabilities, sessionId: 's', projectDir: '/p', signal: new AbortController().signal })
    expect(await slash('/deploy staging')).toMatchObject({ kind: 'expanded', text: '<command-name>/deploy</command-name>\n<command-args>staging</command-args>\n\nDeploy staging', allowedTools: ['Bash(make *)'], model: 'claude-haiku-4-5' })
    expect(await slash('/review')).toMatchObject({ kind: 'expanded', text: '<command-name>/review</command-name>\n\nReview it.' })
    expect(await slash('/background')).toMatchObject({ kind: 'error', message: expect.stringContaining('only the agent may load') })
    expect(await slash('/nothing here')).toEqual({ kind: 'none' })
    expect(await slash('hello /deploy')).toEqual({ kind: 'none' })
    expect(await slash('/mcp__srv__review a.ts security and speed')).toMatchObject({ kind: 'expanded', text: expect.stringContaining('Please review a.ts') })
    expect(got).toEqual([{ file: 'a.ts', focus: 'security and speed' }])
    expect(await slash('/mcp__srv__review')).toEqual({ kind: 'error', name: 'mcp__srv__review', message: '/mcp__srv__review needs file (usage: /mcp__srv__review <file> [focus])' })
  })
})
