import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readGitConfigFacts } from './git-config-read'

// Real git is the judge: for each way of writing a config, every hooks path git itself reads
// (`git config --get-all`, includes and the user's config followed) is one the reader lists.
let base: string
let repo: string
let home: string
beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sous-git-config-'))
  repo = join(base, 'repo')
  home = join(base, 'home')
  mkdirSync(home)
  mkdirSync(repo)
  gitIn('init', '-q')
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

const env = () => ({ ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), GIT_CONFIG_NOSYSTEM: '1' })
function gitIn(...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, encoding: 'utf8', env: env() })
}
/** What git reads, as absolute paths (relative ones are taken from the working tree's root). */
function gitSays(): string[] {
  const out = execFileSync('git', ['config', '--get-all', 'core.hooksPath'], { cwd: repo, encoding: 'utf8', env: env() }).trim()
  return out.split('\n').map((value) => resolve(repo, value.replace(/^~\//, `${home}/`)))
}
const facts = () => readGitConfigFacts({ root: repo, home, repository: [join(repo, '.git', 'config')], env: env() })
const appendConfig = (text: string) => writeFileSync(join(repo, '.git', 'config'), execFileSync('cat', [join(repo, '.git', 'config')], { encoding: 'utf8' }) + text)

describe('readGitConfigFacts', () => {
  it.for([
    ['plain', '[core]\n\thooksPath = hooks-a\n'],
    ['quoted, with a comment', '[core]\n\thooksPath = "hooks b" ; the team\'s\n'],
    ['a hash comment and odd case', '[CORE]\n\tHOOKSPATH=hooks-c # here\n'],
    ['on the header line', '[core] hooksPath = hooks-d\n'],
    ['escaped quote and continued line', '[core]\n\thooksPath = "ho\\"ok" \\\n  s\n'],
    ['from home', '[core]\n\thooksPath = ~/global-hooks\n'],
    ['named twice', '[core]\n\thooksPath = first\n[core]\n\thooksPath = second\n'],
  ] as const)('lists what git reads: %s', ([, text]) => {
    appendConfig(text)
    const listed = facts().hooksPaths
    for (const path of gitSays()) expect(listed).toContain(path)
  })

  it('follows includes (relative to the including file, includeIf whatever its condition) and the user config', () => {
    writeFileSync(join(repo, 'team.gitconfig'), '[include]\n\tpath = nested.gitconfig\n')
    writeFileSync(join(repo, 'nested.gitconfig'), '[core]\n\thooksPath = nested-hooks\n')
    appendConfig('[include]\n\tpath = ../team.gitconfig\n[includeIf "onbranch:other"]\n\tpath = ../other.gitconfig\n')
    writeFileSync(join(repo, 'other.gitconfig'), '[core]\n\thooksPath = other-hooks\n')
    mkdirSync(join(home, '.config', 'git'), { recursive: true })
    writeFileSync(join(home, '.config', 'git', 'config'), '[core]\n\thooksPath = .githooks\n')
    const read = facts()
    expect(read.includes).toEqual(expect.arrayContaining([join(repo, 'team.gitconfig'), join(repo, 'nested.gitconfig'), join(repo, 'other.gitconfig')]))
    for (const path of gitSays()) expect(read.hooksPaths).toContain(path)
    // The condition does not hold now (git skips it), but can later: listed all the same.
    expect(read.hooksPaths).toEqual(expect.arrayContaining([join(repo, '.githooks'), join(repo, 'nested-hooks'), join(repo, 'other-hooks')]))
  })

  it('stops at an include that loops', () => {
    appendConfig('[include]\n\tpath = config\n[core]\n\thooksPath = looped\n')
    expect(facts().hooksPaths).toEqual([join(repo, 'looped')])
  })

  it('reads the configuration the environment names or carries, as git does', () => {
    const global = join(base, 'elsewhere.gitconfig')
    writeFileSync(global, '[core]\n\thooksPath = global-hooks\n')
    const system = join(base, 'system.gitconfig')
    writeFileSync(system, '[core]\n\thooksPath = system-hooks\n')
    // What `git -c` hands the programs it starts, from real git (an alias printing it), a quote in a value too.
    const parameters = execFileSync('git', ['-c', 'alias.penv=!printenv GIT_CONFIG_PARAMETERS', '-c', 'core.hooksPath=c-hooks', '-c', "core.hooksPath=it's-hooks", 'penv'], { cwd: repo, encoding: 'utf8', env: env() }).trim()
    const named = { ...env(), GIT_CONFIG_GLOBAL: global, GIT_CONFIG_SYSTEM: system, GIT_CONFIG_NOSYSTEM: '0', GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'core.hooksPath', GIT_CONFIG_VALUE_0: 'env-hooks', GIT_CONFIG_KEY_1: 'include.path', GIT_CONFIG_VALUE_1: join(base, 'from-env.gitconfig'), GIT_CONFIG_PARAMETERS: parameters }
    writeFileSync(join(base, 'from-env.gitconfig'), '[core]\n\thooksPath = included-hooks\n')
    const gitRead = execFileSync('git', ['config', '--get-all', 'core.hooksPath'], { cwd: repo, encoding: 'utf8', env: named }).trim().split('\n').map((value) => resolve(repo, value))
    const read = readGitConfigFacts({ root: repo, home, repository: [join(repo, '.git', 'config')], env: named })
    expect(gitRead.length).toBeGreaterThanOrEqual(6)
    for (const path of gitRead) expect(read.hooksPaths).toContain(path)
    expect(read.includes).toContain(join(base, 'from-env.gitconfig'))
    // GIT_CONFIG_NOSYSTEM as git reads a boolean: "0" is false, "1" is true.
    expect(readGitConfigFacts({ root: repo, home, repository: [], env: { ...named, GIT_CONFIG_NOSYSTEM: '1' } }).hooksPaths).not.toContain(join(repo, 'system-hooks'))
  })
})
