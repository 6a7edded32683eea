import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * Rewind from a turn's marker, through the real session runtime and the scripted model: the
 * agent edits two places of a file (approved whole), then "Rewind to here" on that turn opens
 * the picker at the checkpoint before it; the preview shows the file's two hunks in the per-hunk
 * Monaco view; one hunk is kept as it is now, the other restored; the file on disk says so, and
 * the conversation is back to before the turn. Esc Esc in the empty composer opens the picker too.
 */

const ORIGINAL = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', ''].join('\n')
const OLD = 'beta\ngamma\ndelta\nepsilon\nzeta'
const NEW = 'BETA\ngamma\ndelta\nepsilon\nZETA'

test('rewind from a turn marker with the per-hunk preview keeps the deselected hunk', async ({ app, projectDir, modelServer }) => {
  const file = join(projectDir, 'notes.txt')
  await writeFile(file, ORIGINAL)
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: file } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_edit', name: 'Edit', input: { file_path: file, old_string: OLD, new_string: NEW } }] } },
    { reply: { content: [{ type: 'text', text: 'Finished with the file.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const message = chat.getByRole('textbox', { name: 'Message' })
  await message.fill('Capitalise two words in notes.txt')
  await message.press('Enter')
  const approvals = app.getByRole('region', { name: 'Approvals' })
  await approvals.getByRole('button', { name: 'Accept all' }).click()
  const log = chat.getByRole('log', { name: 'Conversation' })
  await expect(log.getByLabel('Assistant')).toContainText('Finished with the file.')
  expect(await readFile(file, 'utf8')).toBe(ORIGINAL.replace('beta', 'BETA').replace('zeta', 'ZETA'))

  // Esc Esc in the empty composer opens the picker (Claude Code's shortcut); Cancel closes it.
  await message.click()
  await message.press('Escape')
  await message.press('Escape')
  const picker = app.getByRole('dialog', { name: 'Rewind to a checkpoint' })
  await expect(picker).toBeVisible()
  await picker.getByRole('button', { name: 'Cancel' }).click()
  await expect(picker).toHaveCount(0)

  // The marker on the turn.
  await log.getByRole('group', { name: 'Checkpoint before this message' }).getByRole('button', { name: 'Rewind to here' }).click()
  await expect(picker).toBeVisible()
  await expect(picker.getByRole('list', { name: 'Checkpoints' }).locator('[aria-current="true"]')).toContainText('Before turn 1: Capitalise two words')
  const files = picker.getByRole('list', { name: 'Files to restore' })
  await expect(files.getByRole('checkbox', { name: 'Restore notes.txt' })).toBeChecked()
  const diff = picker.getByTestId('rewind-diff')
  // The per-hunk view: both sides filled in, one bar per hunk.
  await expect(diff.locator('.editor.original .view-lines')).toContainText('BETA')
  await expect(diff.locator('.editor.modified .view-lines')).toContainText('beta')
  await expect(diff.getByRole('list', { name: 'Hunks of notes.txt' }).getByRole('listitem')).toHaveCount(2)
  // Keep the second hunk (ZETA) as it is now.
  await diff.getByRole('button', { name: 'Keep hunk 2 of notes.txt', exact: true }).click()
  await expect(diff.locator('.editor.modified .view-lines')).toContainText('ZETA')
  await picker.getByRole('radio', { name: 'Code and conversation' }).check()
  await picker.getByRole('button', { name: /^Restore 1 file and the conversation \(keeping 1 hunk\)$/ }).click()
  await expect(picker.getByRole('status').filter({ hasText: 'Rewind:' })).toContainText('restored 1 file')
  expect(await readFile(file, 'utf8')).toBe(ORIGINAL.replace('zeta', 'ZETA'))
  await picker.getByRole('button', { name: 'Close' }).last().click()
  // The conversation is as it was before the turn.
  await expect(log.getByLabel('You')).toHaveCount(0)
  await expect(log.getByRole('group', { name: 'Checkpoint before this message' })).toHaveCount(0)
})

test('fork from a turn marker opens a new session whose history ends before that turn', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: 'First answer.' }] } },
    { reply: { content: [{ type: 'text', text: 'Second answer.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const message = chat.getByRole('textbox', { name: 'Message' })
  const log = chat.getByRole('log', { name: 'Conversation' })
  await message.fill('First question')
  await message.press('Enter')
  await expect(log.getByLabel('Assistant')).toContainText('First answer.')
  await message.fill('Second question')
  await message.press('Enter')
  await expect(log.getByLabel('Assistant').nth(1)).toContainText('Second answer.')

  await log.getByRole('group', { name: 'Checkpoint before this message' }).nth(1).getByRole('button', { name: 'Fork from here' }).click()
  const picker = app.getByRole('dialog', { name: 'Fork from a checkpoint' })
  await expect(picker.getByRole('list', { name: 'Checkpoints' }).locator('[aria-current="true"]')).toContainText('Before turn 2: Second question')
  await picker.getByRole('button', { name: 'Fork a new session here' }).click()
  await expect(picker).toHaveCount(0)
  // The new session shows the first turn only; the original is still in the list beside it.
  await expect(log.getByLabel('You')).toHaveCount(1)
  await expect(log.getByLabel('You')).toHaveText('First question')
  await expect(app.getByRole('list', { name: 'Stored sessions' }).getByRole('listitem')).toHaveCount(2)
})
