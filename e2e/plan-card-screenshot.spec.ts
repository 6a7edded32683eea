import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * Not a test: renders the README's picture of the plan card (the agent's plan as Markdown, with
 * the three answers, in plan mode).
 *   SOUS_PLAN_SCREENSHOT=docs/plan-card.png npx playwright test e2e/plan-card-screenshot.spec.ts --project=chromium
 */
const target = process.env.SOUS_PLAN_SCREENSHOT

test.skip(!target, 'Set SOUS_PLAN_SCREENSHOT=<file.png> to render the plan card screenshot.')

const plan = `# Expiry dates for pantry items

1. **Model** — add an optional \`expires?: Date\` to \`Item\` in \`src/items.ts\`.
2. **Warning** — a new \`expiringSoon(items, days = 3)\` in \`src/expiry.ts\`, sorted soonest first.
3. **Tests** — \`src/expiry.test.ts\`: today, tomorrow, past dates, no date.
4. **Docs** — a short *Expiry* section in the README.

Out of scope: notifications, and migrating stored items (they simply have no date).

Verify with \`npm test\`.`

test('plan card screenshot', async ({ app, projectDir, modelServer, host }) => {
  test.skip(host !== 'browser', 'The screenshot is taken in Chromium.')
  const project = join(projectDir, 'pantry')
  await mkdir(join(project, 'src'), { recursive: true })
  await writeFile(join(project, 'src', 'items.ts'), 'export interface Item {\n  name: string\n}\n')
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: 'Let me read the item model first.' }, { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: join(project, 'src', 'items.ts') } }] } },
    { reply: { content: [{ type: 'text', text: 'Here is how I would do it.' }, { type: 'tool_use', id: 'toolu_plan', name: 'ExitPlanMode', input: { plan } }] } },
  ])
  await app.setViewportSize({ width: 1440, height: 900 })
  await openByPath(app, project)
  const chat = app.getByRole('region', { name: 'Chat' })
  const message = chat.getByRole('textbox', { name: 'Message' })
  await message.fill('/plan')
  await message.press('Enter')
  await message.fill('Items should expire, with a warning a few days before. Plan it first.')
  await message.press('Enter')
  const approvals = app.getByRole('region', { name: 'Approvals' })
  await expect(approvals.getByRole('document', { name: 'Plan' })).toContainText('Verify with')
  await approvals.getByRole('textbox', { name: 'Feedback for the agent (sent with Keep planning)' }).fill('Also show the date in the list view.')
  await app.mouse.move(0, 0)
  await app.locator(':focus').blur()
  await app.screenshot({ path: resolve(target ?? 'plan-card.png') })
})
