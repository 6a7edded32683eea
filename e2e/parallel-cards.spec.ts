import { execFileSync } from 'node:child_process'
import { mkdir, realpath, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * A session's card lists its first 8 changed files until Show all; the compare table below lists
 * every one. Real git: one worktree session that changed 10 files, its run as the desk stores it.
 */

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'E2E', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'E2E', GIT_COMMITTER_EMAIL: 'e2e@example.invalid' } })

test('a card lists its first 8 changed files, then all on Show all; the table lists every one', async ({ app, projectDir, sousHome }) => {
  const base = await realpath(projectDir)
  git(base, 'init', '-q', '-b', 'main')
  await writeFile(join(base, '.gitignore'), '.claude/worktrees/\n')
  for (let index = 0; index < 10; index++) await writeFile(join(base, `f${index}.txt`), `file ${index}\n`)
  git(base, 'add', '-A')
  git(base, 'commit', '-qm', 'first')
  const worktree = join(base, '.claude', 'worktrees', 'wide')
  git(base, 'worktree', 'add', '-q', '-b', 'worktree-wide', worktree, 'HEAD')
  for (let index = 0; index < 10; index++) await writeFile(join(worktree, `f${index}.txt`), `file ${index}, changed\n`)
  await mkdir(join(sousHome, 'parallel', 'runs'), { recursive: true })
  const run = { runId: 'run_ca4d0001', projectPath: base, prompt: 'Change every file', createdAt: new Date().toISOString(), sessions: [{ sessionId: 'wide-session', name: 'wide', branch: 'worktree-wide', worktree, model: 'sonnet' }] }
  await writeFile(join(sousHome, 'parallel', 'runs', 'run_ca4d0001.json'), JSON.stringify(run))

  await openByPath(app, projectDir)
  await app.keyboard.press('Control+Shift+P')
  const command = app.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
  await command.fill('Run on N')
  await command.press('Enter')
  const view = app.getByRole('dialog', { name: 'Parallel sessions' })
  await expect(view.getByRole('table', { name: 'Files by session' }).locator('tbody tr')).toHaveCount(10)
  const files = view.getByRole('list', { name: 'Files changed by wide' })
  await expect(files.getByRole('listitem')).toHaveCount(9)
  await expect(files).toContainText('f7.txt')
  await expect(files).not.toContainText('f8.txt')
  await files.getByRole('button', { name: 'Show all 10 files' }).click()
  await expect(files.getByRole('listitem')).toHaveCount(10)
  await expect(files).toContainText('f9.txt')
})
