import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

test('Shift+Tab switches to plan mode, which the status bar shows and the gate enforces', async ({ app, projectDir, modelServer }) => {
  const file = join(projectDir, 'plan.txt')
  await writeFile(file, 'one\n')
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: file, content: 'two\n' } }] } },
    { reply: { content: [{ type: 'text', text: 'I will only plan, then.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const status = app.getByLabel('Status', { exact: true })
  const mode = status.getByTestId('permission-mode')
  await expect(mode).toHaveText('Manual')
  const input = chat.getByRole('textbox', { name: 'Message' })
  await input.click()
  await input.press('Shift+Tab')
  await expect(mode).toHaveText('Accept edits')
  await input.press('Shift+Tab')
  await expect(mode).toHaveText('Plan mode (read-only)')
  await expect(status).toHaveClass(/status-bar--plan/)

  await input.fill('Change the file')
  await input.press('Enter')
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')).toContainText('I will only plan, then.')
  await expect(app.getByRole('region', { name: 'Approvals' })).toHaveCount(0)
  expect(await readFile(file, 'utf8')).toBe('one\n')
  await expect(mode).toHaveText('Plan mode (read-only)')
  // The status bar reads the session's usage: a model, tokens and a cost.
  await expect(status).toContainText('tokens')
  await expect(status).toContainText('$')
})
