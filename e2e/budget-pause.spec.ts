import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath, sendMessage } from './support/app'

test('a spending cap pauses the turn with a card; raising it goes on, and the reply folds its thinking', async ({ app, projectDir, modelServer }) => {
  // A cap no request fits under: the turn pauses before its first request.
  await mkdir(join(projectDir, '.claude'), { recursive: true })
  await writeFile(join(projectDir, '.claude', 'settings.json'), JSON.stringify({ budget: { sessionUsd: 0.0001 } }))
  await modelServer.setScenario([
    {
      reply: {
        content: [
          { type: 'thinking', thinking: 'The user wants a greeting; a short one will do.', signature: 'sig-e2e' },
          { type: 'text', text: 'Hello there.' },
        ],
      },
    },
  ])
  await openByPath(app, projectDir)
  const chat = await sendMessage(app, 'Say hello')

  const card = chat.getByRole('group', { name: 'Paused at the spending cap' })
  await expect(card).toBeVisible()
  await expect(card).toContainText('session spending cap')
  const status = app.getByLabel('Status', { exact: true })
  await expect(status.getByRole('note', { name: /Budget: \$0\.000 \/ \$0\.000 \(session cap\)/ })).toBeVisible()
  const raise = card.getByRole('button', { name: 'Raise the cap' })
  await expect(raise).toBeDisabled()
  await card.getByLabel('New cap').fill('100')
  await raise.click()

  const assistant = chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')
  await expect(assistant).toContainText('Hello there.')
  await expect(card).toHaveCount(0)
  // The thinking is there, folded: its text shows once the disclosure is opened.
  const thinking = assistant.getByRole('group', { name: 'Thinking' })
  await expect(thinking).toBeVisible()
  await expect(thinking.getByText('a short one will do')).toBeHidden()
  await thinking.getByText('Thinking', { exact: true }).click()
  await expect(thinking.getByText('a short one will do')).toBeVisible()
  await expect(status.getByTestId('budget')).toContainText('/ $100.00')
})
