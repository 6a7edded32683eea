import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, startServe, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * Worktree sessions in the app, end to end through `sous serve`, real git and the scripted model:
 * "New session" with "Run in a worktree" (a bad name refused as the core refuses it) opens the
 * session in its worktree's tab, named by worktree and branch; the file tree, a new terminal and
 * the Agent terminal work in the worktree, not the base; the base lists the session, marked, and
 * resuming it reopens the worktree; archiving refuses while the worktree holds a commit the base
 * lacks and "Archive anyway" says what goes; a worktree whose session was deleted is listed for
 * cleanup and removed when asked. A folder that is no git repository, or a host without git,
 * leaves the checkbox disabled with the reason said once.
 */

const EDIT_SCRIPT = `import { writeFileSync } from 'node:fs'
writeFileSync('agent.txt', 'made by the agent\\n')
console.log('ran in ' + process.cwd().split('/').slice(-3).join('/'))
`

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'E2E', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'E2E', GIT_COMMITTER_EMAIL: 'e2e@example.invalid' } })

async function makeRepository(dir: string): Promise<void> {
  await writeFile(join(dir, 'shared.txt'), 'shared\n')
  await writeFile(join(dir, 'edit.mjs'), EDIT_SCRIPT)
  await writeFile(join(dir, '.gitignore'), '.claude/worktrees/\n')
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'add', '-A')
  git(dir, 'commit', '-qm', 'first')
}

async function paletteCommand(app: Page, text: string): Promise<void> {
  await app.keyboard.press('Control+Shift+P')
  const command = app.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
  await command.fill(text)
  await command.press('Enter')
}

test('a session in a worktree: its tab, files, terminals and Agent terminal follow the worktree; listed in the base, resumed there, archived, cleaned up', async ({ app, projectDir, modelServer, sousHome }) => {
  test.setTimeout(120_000)
  await makeRepository(projectDir)
  // Only in the base's folder (untracked): the worktree's file tree must not show it.
  await writeFile(join(projectDir, 'base-only.txt'), 'not in the worktree\n')
  const settingsFile = join(sousHome, 'settings.json')
  const settings = await readFile(settingsFile, 'utf8')
  await writeFile(settingsFile, JSON.stringify({ ...JSON.parse(settings), permissions: { allow: ['Bash(node edit.mjs:*)'] } }))
  const worktree = join(projectDir, '.claude', 'worktrees', 'feature-x')
  try {
    await modelServer.setScenario([
      { reply: { content: [{ type: 'tool_use', id: 'toolu_wt_edit', name: 'Bash', input: { command: 'node edit.mjs', description: 'make a file' } }] } },
      { reply: { content: [{ type: 'text', text: 'Made agent.txt.' }] } },
      { reply: { content: [{ type: 'text', text: 'Hi from the other worktree.' }] } },
    ])
    await openByPath(app, projectDir)
    const sessions = app.getByRole('region', { name: 'Sessions' })
    const options = sessions.getByRole('group', { name: 'New session options' })

    // "Run in a worktree" with a name the core would refuse: said at once, nothing is made.
    await options.getByRole('checkbox', { name: 'Run in a worktree' }).check()
    const name = options.getByRole('textbox', { name: 'Worktree name' })
    await name.fill('bad..name')
    await expect(options.getByRole('alert')).toHaveText('"bad..name" is not a worktree name: git does not accept ".." in a branch name.')
    await name.fill('feature-x')
    await expect(options.getByRole('alert')).toHaveCount(0)
    await sessions.getByRole('button', { name: 'New session in a worktree' }).click()

    // The session opens in its worktree's tab, named by the worktree and its branch.
    const tabs = app.getByRole('tablist', { name: 'Open projects' })
    await expect(tabs.getByRole('tab', { selected: true })).toHaveText('feature-x ⑂ worktree-feature-x')
    await expect(app.getByLabel('Current project')).toContainText(`worktree feature-x on branch worktree-feature-x · ${worktree}`)
    await expect(sessions.getByRole('status')).toContainText('Started in the worktree feature-x (branch worktree-feature-x) from ')
    expect(git(projectDir, 'worktree', 'list')).toContain(worktree)

    // The file tree is the worktree's; a new terminal starts in it.
    const files = app.getByRole('tree', { name: 'Project files' })
    await expect(files.getByRole('treeitem', { name: 'shared.txt' })).toBeVisible()
    await expect(files.getByRole('treeitem', { name: 'base-only.txt' })).toHaveCount(0)
    const terminal = app.getByRole('region', { name: 'Terminal' })
    await terminal.getByRole('tab', { name: 'Terminal 1' }).click()
    const shell = terminal.getByRole('tabpanel', { name: 'Terminal 1' })
    await shell.locator('.xterm').click()
    await app.keyboard.type('pwd')
    await app.keyboard.press('Enter')
    await expect(shell.locator('.xterm-rows > div').filter({ hasText: new RegExp(`^\\s*${worktree.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`) })).toHaveCount(1)

    // The agent's Bash runs in the worktree, and the Agent terminal shows it.
    const chat = app.getByRole('region', { name: 'Chat' })
    await chat.getByRole('textbox', { name: 'Message' }).fill('Make a file')
    await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
    await expect(chat.getByLabel('Assistant').last()).toContainText('Made agent.txt.')
    await terminal.getByRole('tab', { name: 'Agent' }).click()
    await expect(terminal.getByRole('tabpanel', { name: 'Agent' }).locator('.xterm-rows > div').filter({ hasText: /^\s*ran in \.claude\/worktrees\/feature-x\s*$/ })).toHaveCount(1)
    expect(await readFile(join(worktree, 'agent.txt'), 'utf8')).toBe('made by the agent\n')
    expect(existsSync(join(projectDir, 'agent.txt'))).toBe(false)

    // The base lists the session, marked with its worktree; resuming it reopens the worktree's tab.
    await app.getByRole('button', { name: 'Close project feature-x' }).click()
    await expect(tabs.getByRole('tab', { selected: true })).toHaveText(basename(projectDir))
    const row = sessions.getByRole('button', { name: 'Open session Make a file (worktree feature-x)' })
    await expect(row).toContainText('worktree feature-x on worktree-feature-x')
    const search = sessions.getByRole('searchbox', { name: 'Search sessions' })
    await search.fill('Make a')
    await expect(sessions.getByRole('list', { name: 'Search results' }).getByRole('button', { name: 'Open session Make a file (worktree feature-x)' })).toBeVisible()
    await search.fill('')
    await row.click()
    await expect(tabs.getByRole('tab', { selected: true })).toHaveText('feature-x ⑂ worktree-feature-x')
    await expect(chat.getByLabel('You').first()).toHaveText('Make a file')
    await expect(files.getByRole('treeitem', { name: /^agent\.txt/ })).toBeVisible()
    // A reload brings the worktree's tab back, still named by its worktree and branch.
    await app.reload()
    await expect(tabs.getByRole('tab', { selected: true })).toHaveText('feature-x ⑂ worktree-feature-x')
    await expect(chat.getByLabel('You').first()).toHaveText('Make a file')

    // Archive, from the palette: refused while the worktree holds a commit the base lacks.
    git(worktree, 'add', 'agent.txt')
    git(worktree, 'commit', '-qm', 'Add the agent file')
    await paletteCommand(app, "archive this session's worktree")
    const dialog = app.getByRole('dialog', { name: 'Worktrees' })
    const archive = dialog.getByRole('region', { name: "Archive a session's worktree" })
    await expect(archive).toContainText(`removes its worktree feature-x (${worktree}) and its branch worktree-feature-x`)
    await archive.getByRole('button', { name: 'Archive the session and its worktree' }).click()
    const loss = archive.getByRole('group', { name: 'What archiving would lose' })
    await expect(loss.getByRole('alert')).toHaveText('Refused: the worktree holds 1 commit on worktree-feature-x not in the base.')
    await expect(loss.getByRole('list', { name: 'Commits that would be lost' })).toContainText('Add the agent file')
    expect(existsSync(worktree)).toBe(true)
    // Forced: it says exactly what was discarded; the worktree, its branch and its tab go.
    await archive.getByRole('button', { name: 'Archive anyway, losing 1 commit on worktree-feature-x not in the base' }).click()
    await expect(dialog.getByRole('status')).toHaveText(`Archived the session. Removed the worktree ${worktree} and its branch worktree-feature-x. Discarded: 1 commit on worktree-feature-x not in the base.`)
    expect(existsSync(worktree)).toBe(false)
    expect(git(projectDir, 'branch', '--list', 'worktree-feature-x')).toBe('')
    await expect(tabs.getByRole('tab')).toHaveText([basename(projectDir)])
    await dialog.getByRole('button', { name: 'Close' }).click()

    // A worktree session whose session is deleted: listed for cleanup, removed only when asked.
    // (This one from the palette, which ticks the box and puts the cursor in the name field.)
    await paletteCommand(app, 'new session in a worktree')
    await expect(options.getByRole('checkbox', { name: 'Run in a worktree' })).toBeChecked()
    await expect(options.getByRole('textbox', { name: 'Worktree name' })).toBeFocused()
    await app.keyboard.type('left-behind')
    await sessions.getByRole('button', { name: 'New session in a worktree' }).click()
    await expect(tabs.getByRole('tab', { selected: true })).toHaveText('left-behind ⑂ worktree-left-behind')
    await chat.getByRole('textbox', { name: 'Message' }).fill('Say hi')
    await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
    await expect(chat.getByLabel('Assistant').last()).toContainText('Hi from the other worktree.')
    await tabs.getByRole('tab', { name: basename(projectDir) }).click()
    await sessions.getByRole('button', { name: 'Delete Say hi' }).click()
    await sessions.getByRole('group', { name: 'Delete Say hi?' }).getByRole('button', { name: 'Delete' }).click()
    await expect(sessions.getByRole('button', { name: /^Open session Say hi/ })).toHaveCount(0)
    const leftBehind = join(projectDir, '.claude', 'worktrees', 'left-behind')
    expect(existsSync(leftBehind)).toBe(true)
    await paletteCommand(app, 'worktrees to clean up')
    const cleanup = dialog.getByRole('region', { name: 'Worktrees to clean up' })
    const item = cleanup.getByRole('listitem', { name: 'Worktree left-behind' })
    await expect(item).toContainText(/left-behind on worktree-left-behind · its session [0-9a-f]{8} is gone/)
    await item.getByRole('button', { name: 'Remove left-behind' }).click()
    await expect(dialog.getByRole('status')).toHaveText(`Removed the worktree ${leftBehind} and its branch worktree-left-behind.`)
    await expect(cleanup).toContainText('Nothing to clean up')
    expect(existsSync(leftBehind)).toBe(false)
    await expect(tabs.getByRole('tab')).toHaveText([basename(projectDir)])
  } finally {
    await writeFile(settingsFile, settings)
  }
})

test('no worktrees where there is no git repository, or no git: the checkbox is disabled and says why once', async ({ app, projectDir, host, sousHome, modelServer, lazyChromium, viewport }) => {
  await openByPath(app, projectDir)
  const options = app.getByRole('region', { name: 'Sessions' }).getByRole('group', { name: 'New session options' })
  const checkbox = options.getByRole('checkbox', { name: 'Run in a worktree' })
  await expect(checkbox).toBeDisabled()
  await expect(checkbox).toHaveAccessibleDescription(`${projectDir} is not in a git repository, so sessions here cannot have worktrees; they run in the folder itself.`)
  await expect(options.getByText('is not in a git repository')).toHaveCount(1)
  await expect(options.getByText('· not a git repository')).toBeVisible()
  // The plain "New session" still works as always.
  await expect(app.getByRole('region', { name: 'Sessions' }).getByRole('button', { name: 'New session', exact: true })).toBeEnabled()

  // A host whose PATH has no git: the repository is there, git is not.
  test.skip(host === 'electron', 'starts its own `sous serve` with another PATH')
  await makeRepository(projectDir)
  const serve = await startServe(sousHome, modelServer.url, { PATH: '/nonexistent-sous-e2e' })
  const context = await (await lazyChromium()).newContext({ viewport })
  try {
    const page = await context.newPage()
    await page.goto(serve.url)
    await openByPath(page, projectDir)
    const noGit = page.getByRole('region', { name: 'Sessions' }).getByRole('group', { name: 'New session options' })
    await expect(noGit.getByRole('checkbox', { name: 'Run in a worktree' })).toBeDisabled()
    await expect(noGit.getByRole('checkbox', { name: 'Run in a worktree' })).toHaveAccessibleDescription(/git/)
    await expect(noGit.getByText('· git is not installed')).toBeVisible()
  } finally {
    await context.close()
    await serve.child.stop()
  }
})
