import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * Not a test: renders the README's picture of the task panel (the agent's tasks, one in progress
 * and shown in the status bar, one done, one waiting for another).
 *   SOUS_TASKS_SCREENSHOT=docs/tasks.png npx playwright test e2e/tasks-screenshot.spec.ts --project=chromium
 */
const target = process.env.SOUS_TASKS_SCREENSHOT

test.skip(!target, 'Set SOUS_TASKS_SCREENSHOT=<file.png> to render the task panel screenshot.')

const create = (id: string, subject: string, description: string, activeForm: string) => ({ type: 'tool_use', id, name: 'TaskCreate', input: { subject, description, activeForm } })
const update = (id: string, input: Record<string, unknown>) => ({ type: 'tool_use', id, name: 'TaskUpdate', input })

test('task panel screenshot', async ({ app, projectDir, modelServer, host }) => {
  test.skip(host !== 'browser', 'The screenshot is taken in Chromium.')
  const project = join(projectDir, 'pantry')
  await mkdir(join(project, 'src'), { recursive: true })
  await writeFile(join(project, 'src', 'items.ts'), 'export const items: string[] = []\n')
  await modelServer.setScenario([
    // One TaskCreate per reply, so the ids follow this order (calls of one reply run concurrently).
    { reply: { content: [{ type: 'text', text: 'This takes a few steps; I will track them as tasks.' }, create('toolu_t1', 'Add an expiry date to items', 'Optional `expires` on Item', 'Adding the expiry date')] } },
    { reply: { content: [create('toolu_t2', 'Warn about items that expire soon', 'A helper that lists items expiring within 3 days', 'Writing the expiry warning')] } },
    { reply: { content: [create('toolu_t3', 'Test the expiry warning', 'Cover today, tomorrow and no date', 'Testing the expiry warning')] } },
    { reply: { content: [create('toolu_t4', 'Document expiry in the README', 'One short section', 'Documenting expiry')] } },
    {
      reply: {
        content: [
          update('toolu_u1', { taskId: '3', addBlockedBy: ['2'] }),
          update('toolu_u2', { taskId: '4', addBlockedBy: ['2'] }),
          update('toolu_u3', { taskId: '1', status: 'in_progress' }),
        ],
      },
    },
    { reply: { content: [update('toolu_u4', { taskId: '1', status: 'completed' }), update('toolu_u5', { taskId: '2', status: 'in_progress' })] } },
    // Streamed slowly, so the picture shows the turn in the middle of its work.
    { reply: { content: [{ type: 'text', text: `The expiry date is in. Next, the warning: a helper that lists the items expiring within three days, so the kitchen view can show them first. ${'I am writing it in src/expiry.ts. '.repeat(40)}` }] }, chunkSize: 4, delayMs: 150 },
  ])
  await app.setViewportSize({ width: 1440, height: 900 })
  await openByPath(app, project)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Items should expire, and I want a warning a few days before.')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Next, the warning')
  const panel = app.getByRole('region', { name: 'Tasks' })
  await expect(panel.getByLabel('1 of 4 done')).toBeVisible()
  await panel.getByRole('button', { name: 'Add task' }).click()
  await panel.getByRole('textbox', { name: 'Subject' }).fill('Ask Sam about the date format')
  await panel.getByRole('textbox', { name: 'Subject' }).press('Enter')
  await expect(panel.getByLabel('1 of 5 done')).toBeVisible()
  await app.mouse.move(0, 0)
  // No focus ring in the picture (the Add button got focus back when its form closed).
  await app.locator(':focus').blur()
  await app.screenshot({ path: resolve(target ?? 'tasks.png') })
})
