import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { existingDirectory, expandHome } from './folders'

let home: string
const savedHome = process.env['HOME']
beforeEach(() => {
  // os.homedir() reads HOME on POSIX: a temp home stands in for the user's.
  home = mkdtempSync(join(tmpdir(), 'sous-home-'))
  process.env['HOME'] = home
})
afterEach(() => {
  process.env['HOME'] = savedHome
  rmSync(home, { recursive: true, force: true })
})

it('expands ~ to the home folder, as a shell would, and still refuses relative paths', async () => {
  mkdirSync(join(home, 'project'))
  expect(await existingDirectory('~/project')).toBe(realpathSync(join(home, 'project')))
  expect(await existingDirectory('~')).toBe(realpathSync(home))
  expect(expandHome('~other/x')).toBe('~other/x')
  await expect(existingDirectory('project')).rejects.toThrow('Not an absolute path: project')
  await expect(existingDirectory('~/missing')).rejects.toThrow('No such folder')
})
