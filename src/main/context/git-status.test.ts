import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { capStatus, MAX_STATUS_CHARS, readGitStatus, renderGitStatus, unsafeKeys } from './git-status'

let repo: string
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e', HOME: repo } })

beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), 'sous-git-'))
})
afterEach(async () => {
  await rm(repo, { recursive: true, force: true })
})

describe('git status in the dynamic prompt', () => {
  it('names the branch, the main branch, the short status and the latest commits', async () => {
    git('init', '-q', '-b', 'main')
    await writeFile(join(repo, 'a.txt'), 'a')
    git('add', 'a.txt')
    git('commit', '-qm', 'First commit')
    git('checkout', '-qb', 'feature')
    await writeFile(join(repo, 'b.txt'), 'b')
    const reading = await readGitStatus(repo, { HOME: repo, PATH: process.env['PATH'] })
    expect(reading).toMatchObject({ kind: 'status', status: { branch: 'feature', mainBranch: 'main', status: '?? b.txt' } })
    const text = renderGitStatus(reading)
    expect(text).toContain('Current branch: feature')
    expect(text).toMatch(/[0-9a-f]{7,} First commit/)
  })

  it('does not run git status when the repository’s own configuration could make git run a program', async () => {
    git('init', '-q')
    const marker = join(repo, 'ran')
    git('config', 'core.fsmonitor', `touch ${marker}; false`)
    const reading = await readGitStatus(repo, { HOME: repo, PATH: process.env['PATH'] })
    expect(reading).toMatchObject({ kind: 'skipped' })
    expect(renderGitStatus(reading)).toContain('core.fsmonitor')
    await expect(import('node:fs/promises').then((fs) => fs.stat(marker))).rejects.toThrow()
  })

  it('keeps only allowlisted keys of the local scope, ignores the user’s own scopes, and caps a long status', () => {
    const listing = ['local', 'core.bare\nfalse', 'local', 'remote.origin.url\nhttps://x', 'local', 'filter.lfs.clean\ngit-lfs clean', 'global', 'core.pager\nless', 'local', 'include.path\n../x', ''].join('\0')
    expect(unsafeKeys(listing)).toEqual(['filter.lfs.clean', 'include.path'])
    const capped = capStatus(Array.from({ length: 500 }, (_, index) => `?? file-${index}.txt`).join('\n'))
    expect(capped.length).toBeLessThan(MAX_STATUS_CHARS + 100)
    expect(capped).toMatch(/more entries; run git status/)
  })

  it('says nothing outside a repository', async () => {
    expect(await readGitStatus(repo, { HOME: repo, PATH: process.env['PATH'], GIT_CEILING_DIRECTORIES: join(repo, '..') })).toEqual({ kind: 'not_a_repository' })
  })
})
