import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * Not a test: renders the README's picture of a conversation (highlighted code, tool cards with a
 * file excerpt and an edit diff, the status bar).
 *   SOUS_CONVERSATION_SCREENSHOT=docs/conversation.png npx playwright test e2e/conversation-screenshot.spec.ts --project=chromium
 */
const target = process.env.SOUS_CONVERSATION_SCREENSHOT

test.skip(!target, 'Set SOUS_CONVERSATION_SCREENSHOT=<file.png> to render the conversation screenshot.')

const source = `export const items: string[] = []

export function add(name: string): void {
  items.push(name)
}
`

test('conversation screenshot', async ({ app, projectDir, modelServer, host }) => {
  test.skip(host !== 'browser', 'The screenshot is taken in Chromium.')
  const project = join(projectDir, 'pantry')
  await mkdir(join(project, 'src'), { recursive: true })
  const file = join(project, 'src', 'items.ts')
  await writeFile(file, source)
  const answer = [
    'Done: `add` now ignores a name that is already in the list, so the pantry never lists milk twice.',
    '',
    '```ts',
    'add("milk")',
    'add("milk")',
    'console.log(items) // ["milk"]',
    '```',
    '',
    'Next, a test for it?',
  ].join('\n')
  await modelServer.setScenario([
    { reply: { content: [{ type: 'thinking', thinking: 'Read the module, then make add() idempotent.', signature: 'sig' }, { type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: file } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_e', name: 'Edit', input: { file_path: file, old_string: '  items.push(name)', new_string: '  if (items.includes(name)) return\n  items.push(name)' } }] } },
    { reply: { content: [{ type: 'text', text: answer }] }, chunkSize: 24 },
  ])
  await app.setViewportSize({ width: 1280, height: 820 })
  await openByPath(app, project)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Adding the same item twice should not duplicate it.')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel.getByRole('button', { name: 'Accept all' })).toBeEnabled()
  await panel.getByRole('button', { name: 'Accept all' }).click()
  await expect(chat.getByLabel('Usage')).toBeVisible()
  await chat.getByRole('article', { name: 'Tool Edit: Done' }).getByText('Diff').click()
  await app.mouse.move(0, 0)
  await app.screenshot({ path: resolve(target ?? 'conversation.png') })
})
