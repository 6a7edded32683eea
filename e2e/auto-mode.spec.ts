import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath, sendMessage } from './support/app'

/**
 * Auto mode in the app, through `sous serve`, the real gate and the scripted model (whose lane for
 * the small, fast model answers the classifier): Shift+Tab into Auto, a call the classifier allows
 * runs and its card says why, a call it asks about comes to the approvals panel, and the decision
 * log lists both and turns one back into a prompt.
 */
const CLASSIFIER = 'claude-haiku-4-5'

test('auto mode: the card says why, the decision log lists it, ask me next time', async ({ app, projectDir, modelServer }) => {
  const allowed = join(projectDir, 'allowed.txt')
  const asked = join(projectDir, 'asked.txt')
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_a', name: 'Write', input: { file_path: allowed, content: 'yes\n' } }] } },
    { reply: { content: [{ type: 'text', text: 'allow: the user asked for allowed.txt' }] }, forModel: CLASSIFIER },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_b', name: 'Write', input: { file_path: asked, content: 'no\n' } }] } },
    { reply: { content: [{ type: 'text', text: 'ask: nobody asked for asked.txt' }] }, forModel: CLASSIFIER },
    { reply: { content: [{ type: 'text', text: 'Done with the files.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const mode = app.getByLabel('Status', { exact: true }).getByTestId('permission-mode')
  const input = chat.getByRole('textbox', { name: 'Message' })
  await input.click()
  for (const label of ['Accept edits', 'Plan mode (read-only)', 'Auto']) {
    await input.press('Shift+Tab')
    await expect(mode).toHaveText(label)
  }

  await sendMessage(app, 'Create allowed.txt')
  const conversation = chat.getByRole('log', { name: 'Conversation' })
  await expect(conversation.getByRole('note', { name: 'Auto mode allowed: the user asked for allowed.txt' })).toBeVisible()
  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel.getByText('nobody asked for asked.txt')).toBeVisible()
  await expect(conversation.getByRole('note', { name: 'Auto mode asked: nobody asked for asked.txt' })).toBeVisible()
  await panel.getByRole('button', { name: 'Reject all' }).click()
  await expect(conversation.getByLabel('Assistant')).toContainText('Done with the files.')
  expect(await readFile(allowed, 'utf8')).toBe('yes\n')
  expect(existsSync(asked)).toBe(false)

  // The log, from the palette: both decisions, newest first, with their reasons.
  await app.keyboard.press('Control+Shift+P')
  const command = app.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
  await command.fill('auto-mode decision log')
  await command.press('Enter')
  const log = app.getByRole('dialog', { name: 'Auto-mode decisions' })
  const entries = log.getByRole('list', { name: 'Decisions of auto mode, newest first' }).getByRole('listitem')
  await expect(entries).toHaveCount(2)
  await expect(entries.nth(0)).toHaveAccessibleName(`Asked: Write ${asked}`)
  await expect(entries.nth(1)).toHaveAccessibleName(`Allowed: Write ${allowed}`)
  await expect(entries.nth(1)).toContainText('the user asked for allowed.txt')
  await entries.nth(1).getByRole('button', { name: /^Ask me next time: .* \(this session\)$/ }).click()
  await expect(log.getByRole('status')).toContainText('will ask you in auto mode for the rest of this session')
  await expect(entries.nth(1)).toContainText('asks you for the rest of this session')
  await log.getByRole('button', { name: 'Close' }).click()
  await expect(log).toBeHidden()

  // The slash command opens the same view.
  await sendMessage(app, '/auto-decisions')
  await expect(log).toBeVisible()
  expect((await modelServer.recorded()).failures).toEqual([])
})
