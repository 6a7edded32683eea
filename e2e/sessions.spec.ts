import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { expect, startServe, test } from './fixtures'
import { dropFolder, openByPath } from './support/app'

test('a renamed session survives a host restart, is found by search and resumes with its history', async ({
  host,
  sousHome,
  modelServer,
  lazyChromium,
  projectDir,
  viewport,
}) => {
  test.skip(host === 'electron', 'restarts `sous serve`; the desktop app has its own restart path')
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: 'Noted: the pineapple code is 4417.' }] } },
    { reply: { content: [{ type: 'text', text: 'It was 4417.' }] } },
  ])
  const context = await (await lazyChromium()).newContext({ viewport })
  let serve = await startServe(sousHome, modelServer.url)
  try {
    const app = await context.newPage()
    await app.goto(serve.url)
    await openByPath(app, projectDir)
    const chat = app.getByRole('region', { name: 'Chat' })
    await chat.getByRole('textbox', { name: 'Message' }).fill('Remember the pineapple code')
    await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
    await expect(chat.getByLabel('Assistant').last()).toContainText('4417')

    const sessions = app.getByRole('region', { name: 'Sessions' })
    await expect(
      sessions.getByRole('button', { name: 'Open session Remember the pineapple code' }),
    ).toBeVisible()
    await sessions.getByRole('button', { name: 'Rename Remember the pineapple code' }).click()
    await sessions.getByRole('textbox', { name: 'Session name' }).fill('Fruit notes')
    await sessions.getByRole('textbox', { name: 'Session name' }).press('Enter')
    await expect(sessions.getByRole('button', { name: 'Open session Fruit notes' })).toBeVisible()

    // The host goes down and comes back (a new port); nothing is left in the page's memory that counts.
    await serve.child.stop()
    serve = await startServe(sousHome, modelServer.url)
    await app.goto(serve.url)
    await openByPath(app, projectDir)
    await expect(chat.getByLabel('You')).toHaveCount(0)

    await sessions.getByRole('searchbox', { name: 'Search sessions' }).fill('pineapple')
    const found = sessions
      .getByRole('list', { name: 'Search results' })
      .getByRole('button', { name: 'Open session Fruit notes' })
    await expect(found).toContainText('pineapple')
    await found.click()
    await expect(chat.getByLabel('You').first()).toHaveText('Remember the pineapple code')
    await expect(chat.getByLabel('Assistant').first()).toContainText('Noted: the pineapple code is 4417.')

    // Resumed, not just shown: the next prompt carries the history to the model.
    await chat.getByRole('textbox', { name: 'Message' }).fill('What was the code?')
    await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
    await expect(chat.getByLabel('Assistant').last()).toContainText('It was 4417.')
    const { requests } = await modelServer.recorded()
    expect(JSON.stringify(requests.at(-1)?.body['messages'])).toContain('Remember the pineapple code')
  } finally {
    await context.close()
    await serve.child.stop()
  }
})

test('the API key is set from Settings and cannot be read back through the contract', async ({
  app,
  host,
  projectDir,
}) => {
  test.skip(host === 'electron', "reads the contract over the browser host's WebSocket")
  const secret = 'sk-ant-e2e-secret-5f2c9a'
  await openByPath(app, projectDir)
  await app.keyboard.press('Control+,')
  const settings = app.getByRole('dialog', { name: 'Settings' })
  await settings.getByLabel('API key', { exact: true }).fill(secret)
  await settings.getByRole('button', { name: 'Save key' }).click()
  await expect(settings.getByLabel('API key status')).toHaveText(
    'A key is set for this run only (not saved to disk).',
  )
  await expect(settings.getByLabel('API key', { exact: true })).toHaveValue('')

  // Every settings channel, asked directly over the same WebSocket the app uses (opened with the
  // page's socket key, as the app opens it): none returns the key.
  const answers = await app.evaluate(async () => {
    const { origin } = (globalThis as unknown as { location: { origin: string } }).location
    const socketKey = (globalThis as unknown as { localStorage: { getItem(name: string): string | null } }).localStorage.getItem('sous.socketKey')
    const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/ws`, ['sous.v1', `sous-key.${socketKey}`])
    await new Promise((resolve, reject) => {
      socket.onopen = resolve
      socket.onerror = reject
    })
    const ask = (id: number, channel: string) =>
      new Promise<string>((resolve) => {
        socket.addEventListener('message', (event) => {
          const data = String(event.data)
          if ((JSON.parse(data) as { id?: number }).id === id) resolve(data)
        })
        socket.send(JSON.stringify({ id, channel, payload: {} }))
      })
    const result = await Promise.all([
      ask(1, 'settings.apiKeyStatus'),
      ask(2, 'settings.get'),
      ask(3, 'settings.getApiKey'),
      ask(4, 'app.info'),
    ])
    socket.close()
    return result
  })
  expect(answers[0]).toContain('"present":true')
  expect(answers[2]).toContain('UNKNOWN_CHANNEL')
  for (const answer of answers) expect(answer).not.toContain(secret)
  expect(await app.content()).not.toContain(secret)
})

test("searching all projects finds another project's session and opens it there", async ({
  app,
  projectDir,
  modelServer,
}) => {
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'The capybara sleeps.' }] } }])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Where is the capybara?')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('The capybara sleeps.')

  const other = await realpath(await mkdtemp(join(tmpdir(), 'sous-e2e-elsewhere-')))
  try {
    await dropFolder(app, other, '.conversation')
    await expect(app.getByLabel('Current project')).toContainText(other)
    const sessions = app.getByRole('region', { name: 'Sessions' })
    await sessions.getByRole('searchbox', { name: 'Search sessions' }).fill('capybara')
    await expect(sessions.getByText('No session matches.')).toBeVisible()
    await sessions.getByRole('checkbox', { name: 'All projects' }).check()
    const found = sessions
      .getByRole('list', { name: 'Search results' })
      .getByRole('button', { name: 'Open session Where is the capybara?' })
    await expect(found).toContainText(`in ${basename(projectDir)}`)
    await found.click()
    await expect(app.getByLabel('Current project')).toContainText(projectDir)
    await expect(chat.getByLabel('Assistant').first()).toContainText('The capybara sleeps.')
  } finally {
    await rm(other, { recursive: true, force: true })
  }
})
