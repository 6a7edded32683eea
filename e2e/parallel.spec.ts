import { execFileSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * Parallel sessions on worktrees, end to end through `sous serve`, the real session runtime, real
 * git and the scripted model: Run on N starts one prompt in three worktree sessions (opus, sonnet,
 * haiku), each edits shared.txt in its own worktree; the compare view shows files × sessions and
 * the user's test command per worktree; hunks A1 and B2 are picked (C rejected) and applied to the
 * base; a conflicting hunk is previewed three-way and not applied until resolved; a session is
 * updated from the base, committed with a drafted message, and Open PR says why it cannot.
 */

const LINES = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`)
const ORIGINAL = `${LINES.join('\n')}\n`
const withLines = (changes: Record<number, string>) => `${LINES.map((line, i) => changes[i + 1] ?? line).join('\n')}\n`

// The agent's edit: a script in the repository, so each session's Bash call edits its own worktree.
const EDIT_SCRIPT = `import { readFileSync, writeFileSync } from 'node:fs'
const edits = { opus: { 3: 'opus three', 20: 'opus twenty' }, sonnet: { 3: 'sonnet three', 12: 'sonnet twelve' }, haiku: { 25: 'haiku twenty-five' } }
const mine = edits[process.argv[2]]
const lines = readFileSync('shared.txt', 'utf8').split('\\n').map((line, i) => mine[i + 1] ?? line)
writeFileSync('shared.txt', lines.join('\\n'))
`

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'E2E', GIT_AUTHOR_EMAIL: 'e2e@example.invalid', GIT_COMMITTER_NAME: 'E2E', GIT_COMMITTER_EMAIL: 'e2e@example.invalid' } })

/** One model's lane of the script: its Bash call, then its last word. */
function lane(model: string, who: string) {
  return [
    { forModel: model, reply: { content: [{ type: 'tool_use', id: `toolu_${who}`, name: 'Bash', input: { command: `node edit.mjs ${who}`, description: `edit as ${who}` } }] } },
    { forModel: model, reply: { content: [{ type: 'text', text: `${who} is done.` }] } },
  ]
}

test('Run on N, compare and merge hunks into the base', async ({ app, projectDir, modelServer, sousHome }) => {
  test.setTimeout(120_000)
  await writeFile(join(projectDir, 'shared.txt'), ORIGINAL)
  await writeFile(join(projectDir, 'edit.mjs'), EDIT_SCRIPT)
  await writeFile(join(projectDir, '.gitignore'), '.claude/worktrees/\n')
  git(projectDir, 'init', '-q', '-b', 'main')
  git(projectDir, 'config', 'user.name', 'E2E')
  git(projectDir, 'config', 'user.email', 'e2e@example.invalid')
  git(projectDir, 'add', '-A')
  git(projectDir, 'commit', '-qm', 'first')
  // The user's own settings let the agent run the edit script without asking.
  const settingsFile = join(sousHome, 'settings.json')
  const settings = await readFile(settingsFile, 'utf8')
  await writeFile(settingsFile, JSON.stringify({ ...JSON.parse(settings), permissions: { allow: ['Bash(node edit.mjs:*)'] } }))
  try {
    await modelServer.setScenario([
      ...lane('claude-opus-4-6', 'opus'),
      ...lane('claude-sonnet-4-6', 'sonnet'),
      ...lane('claude-haiku-4-5', 'haiku'),
      // The commit message, drafted by the small model later on.
      { forModel: 'claude-haiku-4-5', reply: { content: [{ type: 'text', text: 'Change line 25 of shared.txt' }] } },
    ])
    await openByPath(app, projectDir)

    // Run on N, from the palette.
    await app.keyboard.press('Control+Shift+P')
    const command = app.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
    await command.fill('Run on N')
    await command.press('Enter')
    const view = app.getByRole('dialog', { name: 'Parallel sessions' })
    const form = view.getByRole('form', { name: 'Run on N' })
    await form.getByRole('textbox', { name: 'Prompt for every session' }).fill('Edit shared.txt your way')
    await form.getByRole('button', { name: 'Add a session' }).click()
    await form.getByRole('combobox', { name: 'Model of session 3' }).selectOption('haiku')
    await form.getByRole('button', { name: 'Start 3 sessions' }).click()

    // Side by side: three sessions, each done with one changed file and a cost.
    const cards = view.getByRole('list', { name: 'Sessions side by side' }).getByRole('listitem').filter({ has: app.getByRole('button', { name: /^Open / }) })
    await expect(cards).toHaveCount(3)
    for (const [index, model] of ['opus', 'sonnet', 'haiku'].entries()) {
      const card = cards.nth(index)
      await expect(card).toHaveAccessibleName(new RegExp(`^Session [0-9a-f]{8}-${index + 1}-${model}$`))
      await expect(card).toContainText('done', { timeout: 30_000 })
      await expect(card.getByRole('list', { name: /^Files changed by / })).toContainText('shared.txt')
      await expect(card.getByLabel(/^Cost of /)).toHaveText(/^\$0\.\d{4}$/)
    }
    const names = await Promise.all([0, 1, 2].map(async (i) => ((await cards.nth(i).getAttribute('aria-label')) ?? '').replace(/^Session /, '')))
    const [opus, sonnet, haiku] = names as [string, string, string]
    expect(await readFile(join(projectDir, 'shared.txt'), 'utf8')).toBe(ORIGINAL)

    // Compare: files × sessions, and the user's test command in each worktree.
    const compare = view.getByRole('region', { name: 'Compare' })
    const table = compare.getByRole('table', { name: 'Files by session' })
    await expect(table.getByRole('row', { name: /shared\.txt/ }).getByRole('button')).toHaveCount(3)
    await compare.getByRole('textbox', { name: 'Test command' }).fill('grep -q "opus three" shared.txt')
    await compare.getByRole('button', { name: 'Run in every worktree' }).click()
    await expect(table.getByText(`passed`, { exact: false })).toHaveCount(1)
    await expect(compare.getByRole('group').or(table).getByLabel(`Tests in ${opus}: passed`)).toBeVisible()
    await expect(table.getByLabel(`Tests in ${sonnet}: failed (exit 1)`)).toBeVisible()

    // Pick A1 (opus's first hunk) and B2 (sonnet's second); C (haiku) is not picked.
    await table.getByRole('button', { name: `Diff of shared.txt in ${opus}` }).click()
    let diff = view.getByTestId('parallel-diff')
    await expect(diff.getByRole('list', { name: `Hunks of shared.txt in ${opus}` }).getByRole('listitem')).toHaveCount(2)
    await expect(diff.locator('.editor.modified .view-lines')).toContainText('line 3')
    await diff.getByRole('button', { name: `Pick hunk 1 of shared.txt from ${opus}`, exact: true }).click()
    await expect(diff.locator('.editor.modified .view-lines')).toContainText('opus three')
    await table.getByRole('button', { name: `Diff of shared.txt in ${sonnet}` }).click()
    diff = view.getByTestId('parallel-diff')
    await diff.getByRole('button', { name: `Pick hunk 2 of shared.txt from ${sonnet}`, exact: true }).click()
    const merge = view.getByRole('region', { name: 'Merge into the base' })
    await expect(merge).toContainText('2 hunks picked')
    await merge.getByRole('button', { name: 'Preview the merge' }).click()
    await expect(merge.getByRole('list', { name: 'What Apply writes' })).toContainText('shared.txt · changed')
    // Nothing in the base changes until Apply.
    expect(await readFile(join(projectDir, 'shared.txt'), 'utf8')).toBe(ORIGINAL)
    await merge.getByRole('button', { name: 'Apply 1 file to the base' }).click()
    await expect(view.getByRole('status').first()).toHaveText('Applied to the base: 1 file changed.')
    expect(await readFile(join(projectDir, 'shared.txt'), 'utf8')).toBe(withLines({ 3: 'opus three', 12: 'sonnet twelve' }))
    expect(git(projectDir, 'status', '--porcelain')).toBe(' M shared.txt\n')

    // Sonnet's first hunk changes line 3, which the base now has from opus: previewed three-way, not applied.
    await table.getByRole('button', { name: `Diff of shared.txt in ${sonnet}` }).click()
    diff = view.getByTestId('parallel-diff')
    await diff.getByRole('button', { name: `Pick hunk 1 of shared.txt from ${sonnet}`, exact: true }).click()
    await merge.getByRole('button', { name: 'Preview the merge' }).click()
    const conflicts = merge.getByRole('group', { name: 'Conflicts in shared.txt' })
    await expect(conflicts).toContainText(`hunk 1 from ${sonnet}: the base changed these lines since the session forked`)
    const three = conflicts.getByRole('group', { name: `Three-way preview of shared.txt with ${sonnet}` })
    await expect(three.getByLabel('shared.txt in the base')).toContainText('opus three')
    await expect(three.getByLabel(`shared.txt in ${sonnet}`)).toContainText('sonnet three')
    await expect(merge.getByRole('note')).toHaveText('1 conflicting hunk is not applied until resolved.')
    await expect(merge.getByRole('button', { name: 'Apply 0 files to the base' })).toBeDisabled()
    expect(await readFile(join(projectDir, 'shared.txt'), 'utf8')).toBe(withLines({ 3: 'opus three', 12: 'sonnet twelve' }))
    // Resolved by the user, with their uncommitted changes confirmed: applied.
    const resolved = withLines({ 3: 'opus and sonnet three', 12: 'sonnet twelve' })
    await conflicts.getByRole('textbox', { name: 'Resolution of shared.txt' }).fill(resolved)
    await conflicts.getByRole('button', { name: 'Use this resolution' }).click()
    await expect(merge.getByRole('list', { name: 'What Apply writes' })).toContainText('your resolution')
    const apply = merge.getByRole('button', { name: 'Apply 1 file to the base' })
    await expect(apply).toBeDisabled()
    await merge.getByRole('checkbox', { name: 'Overwrite my uncommitted changes in shared.txt' }).check()
    await apply.click()
    await expect(view.getByRole('status').first()).toHaveText('Applied to the base: 1 file changed.')
    expect(await readFile(join(projectDir, 'shared.txt'), 'utf8')).toBe(resolved)

    // The haiku session: Open PR says why not, a drafted commit, then Update from base as a diff first.
    git(projectDir, 'commit', '-qam', 'merged from the parallel sessions')
    await cards.nth(2).getByRole('button', { name: `Actions of ${haiku}` }).click()
    const actions = view.getByRole('region', { name: `Actions of ${haiku}` })
    await expect(actions.getByRole('button', { name: 'Open PR' })).toBeDisabled()
    await expect(actions).toContainText('Open PR needs the GitHub CLI (gh), which is not installed.')
    await actions.getByRole('button', { name: 'Draft a message' }).click()
    await expect(actions.getByRole('textbox', { name: 'Commit message' })).toHaveValue('Change line 25 of shared.txt')
    await actions.getByRole('button', { name: `Commit in ${haiku}` }).click()
    await expect(actions.getByRole('status')).toContainText(`on worktree-${haiku}`)
    await actions.getByRole('button', { name: 'Update from base…' }).click()
    const update = actions.getByRole('group', { name: 'Update from base preview' })
    await expect(update.getByLabel('What the update changes')).toContainText('+opus and sonnet three')
    await update.getByRole('button', { name: 'Merge the base in' }).click()
    await expect(actions.getByRole('status')).toContainText('Updated from the base (merge)')
    const worktree = join(projectDir, '.claude', 'worktrees', haiku)
    expect(await readFile(join(worktree, 'shared.txt'), 'utf8')).toBe(withLines({ 3: 'opus and sonnet three', 12: 'sonnet twelve', 25: 'haiku twenty-five' }))
    expect(git(worktree, 'log', '--format=%s', '-3')).toContain('Change line 25 of shared.txt')
  } finally {
    await writeFile(settingsFile, settings)
  }
})
