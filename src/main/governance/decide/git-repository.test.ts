import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { outsideAnyRepository } from '../../base/git-discovery'
import { analyzeBash } from '../bash/analyzer'
import { gitRepositoryConcern } from './git-repository'

/*
 * Which repository a read-only git command would read (issue 25) is asked of git, except where git
 * would certainly answer "not a git repository" (issue 30): the same verdict either way. A `git` on
 * PATH that logs each call and runs the real one tells whether git was asked.
 */

const base = mkdtempSync(join(tmpdir(), 'sous-git-repository-'))
const log = join(base, 'git-calls.log')
const bin = join(base, 'bin')
const realGit = execFileSync('which', ['git']).toString().trim()
const savedPath = process.env.PATH
const savedGitDir = process.env.GIT_DIR
// The fast path can only be seen where the temp folder itself is outside every repository.
const tmpOutside = await outsideAnyRepository(tmpdir())

beforeAll(() => {
  mkdirSync(bin)
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`)
  chmodSync(join(bin, 'git'), 0o755)
  process.env.PATH = `${bin}:${savedPath}`
})
afterEach(() => {
  rmSync(log, { force: true })
  if (savedGitDir === undefined) delete process.env.GIT_DIR
  else process.env.GIT_DIR = savedGitDir
})
afterAll(() => {
  process.env.PATH = savedPath
  rmSync(base, { recursive: true, force: true })
})

const calls = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [])
const concern = async (command: string, cwd: string) => gitRepositoryConcern(await analyzeBash(command, { cwd, projectRoot: cwd }), cwd)
const git = (cwd: string, ...args: string[]) => execFileSync(realGit, ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], { cwd, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } })

describe('gitRepositoryConcern', () => {
  it.skipIf(!tmpOutside)('outside every repository: no concern, and git is not run for it', async () => {
    const plain = join(base, 'plain')
    mkdirSync(plain)
    expect(await concern('git status && ls', plain)).toBeUndefined()
    expect(calls()).toEqual([])
  })

  it('outside every repository with GIT_DIR set: git is asked, as before', async () => {
    const plain = join(base, 'directed')
    mkdirSync(plain)
    process.env.GIT_DIR = join(base, 'nowhere')
    await concern('git status', plain)
    expect(calls().length).toBeGreaterThan(0)
  })

  it('in a repository: git is asked which configuration it reads, and a program-naming key is a concern', async () => {
    const repo = join(base, 'repo')
    mkdirSync(repo)
    git(repo, 'init', '-q')
    expect(await concern('git status', repo)).toBeUndefined()
    expect(calls().some((line) => line.startsWith('rev-parse'))).toBe(true)
    expect(calls().some((line) => line.startsWith('config --list'))).toBe(true)
    git(repo, 'config', 'filter.x.clean', 'cat')
    expect(await concern('git status', repo)).toMatch(/sets filter\.x\.clean/)
  })

  it('in a folder laid out as a git directory (no .git anywhere above it): git is asked, and it is an embedded repository', async () => {
    const embedded = join(base, 'embedded')
    mkdirSync(embedded)
    git(embedded, 'init', '-q', '--bare')
    expect(await concern('git log', embedded)).toMatch(/embedded repository/)
  })
})
