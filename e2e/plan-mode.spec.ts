import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

// Plan mode driven by the agent, as far as this wave goes: EnterPlanMode asks, the status bar
// follows the mode the session switches to, and ExitPlanMode's approval shows the plan (the plan
// card with editing and the two approve choices is the next wave's).
test('the agent asks to plan, the status bar follows, and the approved plan ends plan mode', async ({ app, projectDir, sousHome, modelServer }) => {
  const plan = '# Plan\n\n1. Rename the README heading'
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_enter', name: 'EnterPlanMode', input: {} }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_exit', name: 'ExitPlanMode', input: { plan } }] } },
    { reply: { content: [{ type: 'text', text: 'Plan approved; starting.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const mode = app.getByLabel('Status', { exact: true }).getByTestId('permission-mode')
  await expect(mode).toHaveText('Ask before changes')
  const input = chat.getByRole('textbox', { name: 'Message' })
  await input.fill('Rename the heading, but plan first')
  await input.press('Enter')

  const approvals = app.getByRole('region', { name: 'Approvals' })
  await expect(approvals).toContainText('EnterPlanMode')
  await expect(approvals).toContainText('it will explore with read-only tools')
  await approvals.getByRole('button', { name: 'Allow once' }).click()
  await expect(mode).toHaveText('Plan mode (read-only)')

  await expect(approvals).toContainText('ExitPlanMode')
  await expect(approvals).toContainText('1. Rename the README heading')
  await approvals.getByRole('button', { name: 'Allow once' }).click()
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')).toContainText('Plan approved; starting.')
  await expect(mode).toHaveText('Ask before changes')
  expect((await modelServer.recorded()).failures).toEqual([])
  // Saved where Claude Code keeps plans, under the app's HOME (`<sousHome>/user-home` in these tests).
  const dir = join(sousHome, 'user-home', '.claude', 'plans')
  const texts = await Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name), 'utf8')))
  expect(texts).toContain(`${plan}\n`)
})
