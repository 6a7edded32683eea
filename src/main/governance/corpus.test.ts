import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BASELINE } from '../../../test/corpus/baseline'
import { BOOKKEEPING } from '../../../test/corpus/bookkeeping'
import { EVALUATING } from '../../../test/corpus/evaluating'
import type { CorpusCase } from '../../../test/corpus/cases'
import { GIT_FILES } from '../../../test/corpus/git-files'
import { PLACES } from '../../../test/corpus/places'
import { READ_ONLY } from '../../../test/corpus/read-only'
import { SEARCHING } from '../../../test/corpus/searching'
import { WRAPPERS } from '../../../test/corpus/wrappers'
import { decide } from './decide/decide'
import { loadSettings } from './settings/load'
import type { MergedSettings } from './settings/types'
import { makeTempProject, type TempProject } from '../../../test/support/governance'

/**
 * The adversarial corpus: calls with the decision each must get under one fixed settings set,
 * grouped by class of attack (see `test/corpus/`), each with the reason for its outcome. The point is
 * the `allow` column: nothing may be allowed that should not be.
 */
const SETTINGS = {
  permissions: {
    allow: ['Bash(npm run test:*)', 'Bash(git status:*)', 'Bash(ls *)', 'Bash(git * main)', 'Bash(echo *)', 'Bash(rg *)', 'Bash(sort *)', 'Edit(src/**)', 'WebFetch(domain:example.com)', 'mcp__github__get_issue'],
    deny: ['Bash(rm *)', 'Bash(curl *)', 'Read(./.env)', 'Read(./secrets/**)', 'WebFetch(domain:evil.com)'],
    ask: ['Bash(git push *)', 'Bash(npm publish *)', 'Read(./private/**)'],
  },
}

const CLASSES = [...BASELINE, ...READ_ONLY, ...GIT_FILES, ...PLACES, ...SEARCHING, ...WRAPPERS, ...BOOKKEEPING, ...EVALUATING]

let project: TempProject
let settings: MergedSettings

beforeAll(() => {
  project = makeTempProject(SETTINGS)
  const root = project.root
  execFileSync('git', ['init', '-q'], { cwd: root })
  for (const dir of ['private', 'docs', 'src/sub']) mkdirSync(join(root, dir), { recursive: true })
  writeFileSync(join(root, 'secrets', 'key'), 'TOKEN=hunter2\n')
  writeFileSync(join(root, 'private', 'notes.txt'), 'private\n')
  // The links the attacks go through (see corpus/places.ts).
  for (const [target, link] of [['.claude', 'cfg'], ['.git/hooks', 'h'], ['../outside/file', 'notes.md'], ['src', 'srcl'], ['..', 'up'], ['secrets', 'sec'], ['loop', 'loop']]) {
    symlinkSync(target as string, join(root, link as string))
  }
  const loaded = loadSettings(root, { projectTrust: 'assume', sousHome: project.sousHome, home: project.home, managedPath: `${project.base}/managed.json` })
  expect(loaded.diagnostics).toEqual([])
  settings = loaded.settings
})
afterAll(() => project.cleanup())

const READ_ONLY_TOOLS = new Set(['Read', 'Glob', 'Grep', 'TaskOutput', 'WebFetch'])
/**
 * Tools whose `isBookkeeping` trait is true here (governance reads the trait, never these names).
 * Bash and Edit claim it too, to show the trait cannot lift a command or a file edit past the rules.
 */
const BOOKKEEPING_TOOLS = new Set(['TaskStop', 'TaskCreate', 'TaskUpdate', 'Bash', 'Edit'])

/** `$ROOT`, `$OUTSIDE` and `$HOME` in a tool input's strings stand for the fixture's folders. */
function inputOf(c: CorpusCase): Record<string, unknown> {
  if (typeof c.input === 'string') return { command: c.input }
  const places: Record<string, string> = { $ROOT: project.root, $OUTSIDE: project.outside, $HOME: project.home }
  return Object.fromEntries(Object.entries(c.input).map(([key, value]) => [key, typeof value === 'string' ? value.replace(/\$(ROOT|OUTSIDE|HOME)/g, (name) => places[name] as string) : value]))
}

async function run(c: CorpusCase) {
  const traits = { isReadOnly: () => READ_ONLY_TOOLS.has(c.tool), isBookkeeping: () => BOOKKEEPING_TOOLS.has(c.tool) }
  return decide({ tool: { name: c.tool, ...traits }, input: inputOf(c), mode: c.mode, settings, cwd: project.root, projectRoot: project.root })
}

describe('adversarial corpus', () => {
  it('has more than 500 cases, each with a reason', () => {
    const cases = CLASSES.flatMap((group) => group.cases)
    expect(cases.length).toBeGreaterThan(500)
    expect(cases.every((c) => c.why.length > 0)).toBe(true)
  })

  describe.each(CLASSES.map((group) => [group.name, group.cases] as const))('%s', (_name, cases) => {
    it.each(cases.map((c, i) => [i, c.mode, c.tool, c.input, c.expected, c] as const))('#%i [%s] %s %j → %s', async (_i, _mode, _tool, _input, expected, c) => {
      const decision = await run(c)
      expect(decision.behavior, `${c.why}\n${JSON.stringify(decision.explanation)}`).toBe(expected)
      expect(decision.explanation).toBeDefined()
    })
  })
})
