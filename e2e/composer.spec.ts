import { expect, test } from './fixtures'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
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

test('"/" lists the built-in slash commands, and /plan switches the mode without reaching the model', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([])
  const before = (await modelServer.recorded()).requests.length
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const input = chat.getByRole('textbox', { name: 'Message' })
  await input.fill('/')
  const list = chat.getByRole('listbox', { name: 'Slash commands' })
  // Claude Code's built-ins Sous handles, the mode switches (/auto among them), /auto-decisions, /tasks and /todos, /think, /team, /rewind /checkpoint /undo, /loop, /parallel, /help; no project commands here.
  await expect(list.getByRole('option')).toHaveCount(24)
  await expect(list.getByRole('option', { name: '/compact' })).toContainText('[instructions]')
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

test('a custom command completes with its argument hint and reaches the model expanded; built-ins answer under the box', async ({ app, projectDir, modelServer }) => {
  await mkdir(join(projectDir, '.claude', 'commands'), { recursive: true })
  await writeFile(
    join(projectDir, '.claude', 'commands', 'review.md'),
    '---\ndescription: Review a file\nargument-hint: <file> [focus]\n---\nReview $0 with a focus on $1, please.\n',
  )
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'Reviewed.' }] } }])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const input = chat.getByRole('textbox', { name: 'Message' })
  const before = (await modelServer.recorded()).requests.length

  // Built-ins answer in the app: /help lists the project's command too (/memory, /agents and /context
  // open their views: see memory.spec.ts and the agents and context specs).
  await input.fill('/help')
  await input.press('Enter')
  const output = chat.getByRole('region', { name: 'Command output' })
  await expect(output).toContainText('/model [model]')
  await expect(output).toContainText('/review <file> [focus] — Review a file (project command)')
  await input.fill('/model opus')
  await input.press('Enter')
  await expect(output).toContainText('opus will answer from your next message.')
  expect((await modelServer.recorded()).requests).toHaveLength(before)

  // The custom command is listed after the built-ins with its hint; Enter fills in its name.
  // (`/rev`: `/re` would pick the built-in `/rewind` first.)
  await input.fill('/rev')
  const list = chat.getByRole('listbox', { name: 'Slash commands' })
  const review = list.getByRole('option', { name: '/review' })
  await expect(review).toContainText('<file> [focus]')
  await expect(review).toContainText('project command')
  await input.press('Enter')
  await expect(input).toHaveValue('/review ')
  await expect(chat.locator('.composer__hint')).toContainText('/review <file> [focus]')
  await input.pressSequentially('src/app.ts security')
  await input.press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Reviewed.')
  const { requests } = await modelServer.recorded()
  const sent = JSON.stringify(requests.at(-1)?.body['messages'])
  expect(sent).toContain('Review src/app.ts with a focus on security, please.')
  // /model chose the model before the session existed: its first request used it.
  expect(requests.at(-1)?.body['model']).toMatch(/opus/)
})
