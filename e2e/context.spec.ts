import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

// The context view and /compact, in Chromium against `sous serve` and the scripted model.

async function send(app: Page, text: string): Promise<void> {
  const input = app.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  await input.fill(text)
  await input.press('Enter')
}

const summary = { reply: { content: [{ type: 'text', text: '<analysis>Reviewing.</analysis>\n<summary>\nThe user asked about the README; it was read.\n</summary>' }] } }

test('the status bar’s meter, the palette and /context open the context view, which sizes every part of the next request', async ({ app, projectDir, modelServer }) => {
  await writeFile(join(projectDir, 'CLAUDE.md'), 'Always answer in one sentence.\n')
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: join(projectDir, 'README.md') } }] } },
    { reply: { content: [{ type: 'text', text: 'The README is a one-line heading.' }] } },
  ])
  await openByPath(app, projectDir)
  await send(app, 'What is in the README?')
  const chat = app.getByRole('region', { name: 'Chat' })
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')).toContainText('one-line heading')

  await app.getByRole('button', { name: /^Context used: .* Open the context view$/ }).click()
  const view = app.getByRole('dialog', { name: 'Context' })
  const parts = view.getByRole('table', { name: 'What the next request holds' })
  await expect(parts.getByRole('rowheader', { name: 'System prompt' })).toBeVisible()
  await expect(parts.getByRole('rowheader', { name: /Static part/ })).toBeVisible()
  await expect(parts.getByRole('rowheader', { name: new RegExp(`${join(projectDir, 'CLAUDE.md')}`) })).toBeVisible()
  await expect(parts.getByRole('rowheader', { name: /Built-in tools/ })).toBeVisible()
  await expect(parts.getByRole('rowheader', { name: /Tool results: Read/ })).toBeVisible()
  await expect(view.getByRole('img', { name: /tokens used: System prompt/ })).toBeVisible()
  await expect(view.getByRole('region', { name: 'What compaction would do next' })).toContainText('Automatic summary')
  await expect(view.getByRole('table', { name: 'Compactions in this session' })).toContainText('None yet.')
  await app.keyboard.press('Escape')
  await expect(view).toBeHidden()

  await app.keyboard.press('Control+Shift+P')
  const command = app.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
  await command.fill('context view')
  await command.press('Enter')
  await expect(view).toBeVisible()
  await view.getByRole('button', { name: 'Close' }).click()

  await send(app, '/context')
  await expect(view).toBeVisible()
  expect((await modelServer.recorded()).failures).toEqual([])
})

test('/compact summarizes with instructions, the chat shows it as a turn, and the view lists it in its history', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'Hello there.' }] } }, summary])
  await openByPath(app, projectDir)
  await send(app, 'Say hello')
  const log = app.getByRole('region', { name: 'Chat' }).getByRole('log', { name: 'Conversation' })
  await expect(log.getByLabel('Assistant')).toContainText('Hello there.')

  await send(app, '/compact keep the greeting')
  await expect(log.getByLabel('You').last()).toHaveText('/compact keep the greeting')
  await expect(log).toContainText('Compacted (summary on request)')
  const { requests, failures } = await modelServer.recorded()
  expect(failures).toEqual([])
  const last = requests.at(-1)!.body
  expect(last['tool_choice']).toEqual({ type: 'none' })
  expect(JSON.stringify(last['messages'])).toContain('keep the greeting')

  await app.getByRole('button', { name: /^Context used: / }).click()
  const history = app.getByRole('dialog', { name: 'Context' }).getByRole('table', { name: 'Compactions in this session' })
  await expect(history).toContainText('Summary on request (you)')
  await expect(history).toContainText('summarized')
})

test('Compact now in the view compacts the session on view', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'Noted.' }] } }, summary])
  await openByPath(app, projectDir)
  await send(app, 'Remember the number 42')
  await expect(app.getByRole('region', { name: 'Chat' }).getByLabel('Assistant')).toContainText('Noted.')
  await app.getByRole('button', { name: /^Context used: / }).click()
  const view = app.getByRole('dialog', { name: 'Context' })
  const form = view.getByRole('form', { name: 'Compact now' })
  await form.getByRole('textbox', { name: /Compact now, keeping in detail/ }).fill('the number')
  await form.getByRole('button', { name: 'Compact now' }).click()
  await expect(view.getByRole('table', { name: 'Compactions in this session' })).toContainText('Summary on request (you)')
  const { requests } = await modelServer.recorded()
  expect(JSON.stringify(requests.at(-1)!.body['messages'])).toContain('the number')
})

test('the view is fetched at idle, so its first open draws in the click’s own task, not after a Suspense wait', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'Hi.' }] } }])
  await openByPath(app, projectDir)
  await send(app, 'Hello')
  await expect(app.getByRole('region', { name: 'Chat' }).getByLabel('Assistant')).toContainText('Hi.')
  // The idle warm-up has the chunk: lazyNamed marks its arrival.
  await expect.poll(() => app.evaluate(() => performance.getEntriesByName('sous:lazy:ContextView').length)).toBeGreaterThan(0)
  const meter = app.getByRole('button', { name: /^Context used: .* Open the context view$/ })
  // Clicked from inside the page and checked one task later: a view that had to suspend (React
  // holds a revealed boundary back for 300 ms) would not be in the DOM yet.
  // (The e2e sources have no DOM types: the page's objects are described as far as they are used.)
  const drawnAtOnce = await meter.evaluate(
    (button) =>
      new Promise<boolean>((resolve) => {
        ;(button as unknown as { click(): void }).click()
        const { document } = globalThis as unknown as { document: { querySelector(selector: string): unknown } }
        setTimeout(() => resolve(document.querySelector('[role="dialog"][aria-label="Context"]') !== null), 0)
      }),
  )
  expect(drawnAtOnce).toBe(true)
  await expect(app.getByRole('dialog', { name: 'Context' }).getByRole('table', { name: 'What the next request holds' }).getByRole('rowheader', { name: /Built-in tools/ })).toBeVisible()
})
