import { expect, test } from './fixtures'
import { openByPath } from './support/app'

const filler = 'This sentence is here so the reply takes a while to stream. '

test('a message typed while the agent works is queued and sent when the turn ends', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: `First answer. ${filler.repeat(6)}End of first.` }] }, chunkSize: 6, delayMs: 40 },
    { reply: { content: [{ type: 'text', text: 'Second answer.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const input = chat.getByRole('textbox', { name: 'Message' })
  await input.fill('First question')
  await input.press('Enter')
  const log = chat.getByRole('log', { name: 'Conversation' })
  await expect(log.getByLabel('Assistant').first()).toContainText('First answer.')
  await input.fill('And a follow-up')
  await input.press('Enter')
  await expect(chat.getByLabel('Queued follow-up')).toContainText('And a follow-up')
  await expect(log.getByLabel('Assistant').nth(1)).toContainText('Second answer.')
  await expect(log.getByLabel('You').nth(1)).toHaveText('And a follow-up')
  await expect(chat.getByLabel('Queued follow-up')).toHaveCount(0)
  const { requests } = await modelServer.recorded()
  expect(JSON.stringify(requests.at(-1)?.body['messages'])).toContain('End of first.')
})

test('"/" lists the slash commands, and /plan switches the mode without reaching the model', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([])
  const before = (await modelServer.recorded()).requests.length
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const input = chat.getByRole('textbox', { name: 'Message' })
  await input.fill('/')
  const list = chat.getByRole('listbox', { name: 'Slash commands' })
  await expect(list.getByRole('option')).toHaveCount(9)
  await expect(list.getByRole('option').filter({ hasText: '/memory' })).toHaveCount(1)
  await input.fill('/pl')
  await expect(list.getByRole('option')).toHaveCount(1)
  await input.press('Enter')
  await expect(input).toHaveValue('')
  await expect(app.getByTestId('permission-mode')).toHaveText('Plan mode (read-only)')
  expect((await modelServer.recorded()).requests).toHaveLength(before)
})

test('files dropped on the message box become @mentions, not a project switch', async ({ app, projectDir }) => {
  await openByPath(app, projectDir)
  const input = app.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  await input.fill('Look at')
  const dataTransfer = await app.evaluateHandle((uris) => {
    const transfer = new (globalThis as unknown as { DataTransfer: new () => { setData(type: string, data: string): void } }).DataTransfer()
    transfer.setData('text/uri-list', uris)
    return transfer
  }, [`file://${projectDir}/README.md`, `file://${projectDir}/my%20notes`].join('\r\n'))
  await input.dispatchEvent('dragenter', { dataTransfer })
  await input.dispatchEvent('dragover', { dataTransfer })
  await input.dispatchEvent('drop', { dataTransfer })
  await dataTransfer.dispose()
  await expect(input).toHaveValue('Look at @README.md @"my notes" ')
  await expect(app.getByLabel('Current project')).toContainText(projectDir)
})
