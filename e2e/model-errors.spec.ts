import { expect, test } from './fixtures'
import { openByPath } from './support/app'

test('model service errors say what the harness did: retried and recovered, or gave up', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { error: { status: 529, type: 'overloaded_error', message: 'Overloaded', retryAfterMs: 10 } },
    { reply: { content: [{ type: 'text', text: 'Here after a retry.' }] } },
    { error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const input = chat.getByRole('textbox', { name: 'Message' })
  await input.fill('Hello?')
  await input.press('Enter')
  const replies = chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')
  await expect(replies.first()).toContainText('Here after a retry.')
  await expect(replies.first()).toContainText(/Retrying \(attempt 2\) in [\d.]+s: overloaded/)
  await expect(replies.first()).toContainText('Sous retried once, and recovered.')

  await input.fill('Again?')
  await input.press('Enter')
  await expect(replies.nth(1)).toContainText('invalid x-api-key')
  await expect(replies.nth(1)).toContainText('Sous gave up (the error cannot be fixed by retrying).')
})
