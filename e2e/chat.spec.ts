import { expect, test } from './fixtures'
import { openByPath } from './support/app'

const opening = 'Hello from the scripted model.'
const closing = 'That is all for now.'
const filler = 'This sentence is here so the reply takes a while to stream. '

test('a prompt streams its reply, with an intermediate state, then a usage line', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: `${opening} ${filler.repeat(3)}${closing}` }] }, chunkSize: 6, delayMs: 60 },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Say hello')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')

  const log = chat.getByRole('log', { name: 'Conversation' })
  await expect(log.getByLabel('You')).toHaveText('Say hello')
  const reply = log.getByLabel('Assistant')
  // Mid-stream: the first words are there, the last are not, and the turn can be stopped.
  await expect(reply).toContainText(opening)
  await expect(reply).not.toContainText(closing)
  await expect(chat.getByRole('button', { name: 'Stop' })).toBeEnabled()
  await expect(chat.getByRole('status')).toHaveText('Responding…')

  await expect(reply).toContainText(closing)
  await expect(chat.getByRole('button', { name: 'Send' })).toBeVisible()
  await expect(reply.getByLabel('Usage')).toContainText(/^[\d,.k]+ in( \([\d,.k]+ cached\))? · [\d,.k]+ out · \$\d/)
  const { requests } = await modelServer.recorded()
  expect(JSON.stringify(requests.at(-1)?.body['messages'])).toContain('Say hello')
})

test('Stop aborts a streaming reply', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: `${opening} ${filler.repeat(40)}${closing}` }] }, chunkSize: 4, delayMs: 50 },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Talk for a long time')
  await chat.getByRole('button', { name: 'Send' }).click()

  const reply = chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')
  await expect(reply).toContainText(opening)
  await chat.getByRole('button', { name: 'Stop' }).click()

  await expect(reply).toContainText('Stopped')
  await expect(chat.getByRole('button', { name: 'Send' })).toBeVisible()
  const stoppedAt = await reply.textContent()
  await app.waitForTimeout(500) // Give a stream that failed to stop the chance to show itself.
  expect(await reply.textContent()).toBe(stoppedAt)
  await expect(reply).not.toContainText(closing)
})

test('a failing model shows a clear error instead of a reply', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([{ error: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' } }])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Hello?')
  await chat.getByRole('button', { name: 'Send' }).click()
  await expect(chat.getByRole('alert')).toContainText('The model request failed')
  await expect(chat.getByRole('alert')).toContainText('invalid x-api-key')
  await expect(chat.getByRole('button', { name: 'Send' })).toBeVisible()
})

test('a tool call shows as a card with its state and result', async ({ app, projectDir, modelServer }) => {
  const readme = `${projectDir}/README.md`
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_e2e_1', name: 'Read', input: { file_path: readme } }] } },
    { reply: { content: [{ type: 'text', text: 'The README has a title and nothing else.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('What does the README say?')
  await chat.getByRole('button', { name: 'Send' }).click()

  const card = chat.getByRole('article', { name: 'Tool Read: Done' })
  await expect(card).toContainText(readme)
  await card.getByText('File excerpt').click()
  await expect(card).toContainText('A test project')
  await expect(chat.getByLabel('Assistant')).toContainText('The README has a title and nothing else.')
})

test('the log follows a streaming reply, and stops following once the reader scrolls up', async ({ app, projectDir, modelServer }) => {
  const lines = (label: string, count: number) => Array.from({ length: count }, (_, i) => `- ${label} line ${i + 1}`).join('\n')
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: `First.\n\n${lines('first', 40)}` }] } },
    { reply: { content: [{ type: 'text', text: `Second.\n\n${lines('second', 60)}\n\nSECOND-END` }] }, chunkSize: 12, delayMs: 40 },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const log = chat.getByRole('log', { name: 'Conversation' })
  const fromEnd = () => log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)
  await chat.getByRole('textbox', { name: 'Message' }).fill('First')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(log.getByLabel('Assistant').last()).toContainText('first line 40')
  await expect.poll(fromEnd).toBeLessThan(2)
  await chat.getByRole('textbox', { name: 'Message' }).fill('Second')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(log.getByLabel('Assistant').last()).toContainText('second line 5')
  // The reader scrolls up mid-stream: the stream goes on without pulling the view back down.
  const box = (await log.boundingBox())!
  await app.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await app.mouse.wheel(0, -600)
  await expect(log.getByLabel('Assistant').last()).toContainText('SECOND-END')
  await app.waitForTimeout(300)
  expect(await fromEnd()).toBeGreaterThan(300)
})

test('code blocks in a reply show highlighted, in the first language group and the last', async ({ app, projectDir, modelServer }) => {
  const text = ['Two blocks:', '', '```ts', 'const a = 1 < 2', '```', '', '```wasm', '(module (func $f))', '```', '', 'The end.'].join('\n')
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text }] }, chunkSize: 12 }])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Show me code')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const reply = chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')
  await expect(reply).toContainText('The end.')
  // Whatever had arrived when the block was first shown, no text is lost and both end up coloured.
  await expect(reply.locator('code.language-ts .hljs-keyword')).toHaveText('const')
  await expect(reply.locator('code.language-ts')).toHaveText('const a = 1 < 2')
  await expect(reply.locator('code.language-wasm .hljs-keyword').first()).toBeVisible()
  await expect(reply.locator('code.language-wasm')).toHaveText('(module (func $f))')
})
