import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * Not a test: renders the README's picture of a per-hunk approval (one hunk accepted, one rejected).
 *   SOUS_APPROVAL_SCREENSHOT=docs/approval.png npx playwright test e2e/approval-screenshot.spec.ts --project=chromium
 */
const target = process.env.SOUS_APPROVAL_SCREENSHOT

test.skip(!target, 'Set SOUS_APPROVAL_SCREENSHOT=<file.png> to render the approval screenshot.')

const before = `export interface Item {
  name: string
  quantity: number
}

export const items: Item[] = []

export function add(name: string): void {
  items.push({ name, quantity: 1 })
}

export function remove(name: string): void {
  const index = items.findIndex((item) => item.name === name)
  items.splice(index, 1)
}
`
const after = before
  .replace('  quantity: number\n', '  quantity: number\n  /** When it runs out, roughly. */\n  expires?: Date\n')
  .replace('  items.splice(index, 1)', '  if (index === -1) return\n  items.splice(index, 1)')

test('approval screenshot', async ({ app, projectDir, modelServer, host }) => {
  test.skip(host !== 'browser', 'The screenshot is taken in Chromium.')
  const project = join(projectDir, 'pantry')
  await mkdir(join(project, 'src'), { recursive: true })
  const file = join(project, 'src', 'items.ts')
  await writeFile(file, before)
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: 'Let me look at the items module first.' }, { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: file } }] } },
    { reply: { content: [{ type: 'text', text: 'I will add an optional expiry date and make `remove` safe for unknown names.' }, { type: 'tool_use', id: 'toolu_edit', name: 'Write', input: { file_path: file, content: after } }] } },
  ])
  await app.setViewportSize({ width: 1440, height: 900 })
  await openByPath(app, project)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Items should be able to expire, and removing an unknown item must not delete the last one.')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel.getByText('2 hunks')).toBeVisible()
  await expect(panel.getByRole('button', { name: 'Accept all' })).toBeEnabled()
  await panel.getByRole('button', { name: 'Accept hunk 1' }).first().click()
  await panel.getByRole('button', { name: 'Reject hunk 2' }).first().click()
  await expect(panel.getByText('1 accepted · 1 rejected · 0 open')).toBeVisible()
  await panel.getByRole('button', { name: 'Expand' }).click()
  // Monaco recomputes the diff in its worker after an edit; let the picture show the settled diff.
  await app.waitForTimeout(1500)
  await app.mouse.move(0, 0)
  await app.screenshot({ path: resolve(target ?? 'approval.png') })
})
