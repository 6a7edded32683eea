import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'
import type { ModelServer } from './support/model-server'

type ModelServerRecord = Awaited<ReturnType<ModelServer['recorded']>>

// Plan mode driven by the agent: EnterPlanMode asks, the status bar follows the mode, and
// ExitPlanMode's plan card shows the plan as Markdown, lets the user edit it, send it back with
// feedback, or approve it into the mode they pick.

/** The tool_result the model got for `toolUseId`, from the recorded requests. */
function toolResult(record: ModelServerRecord, toolUseId: string): string {
  for (const request of record.requests) {
    for (const message of request.body['messages'] as Array<{ content: unknown }>) {
      if (!Array.isArray(message.content)) continue
      const found = message.content.find((block: { type?: string; tool_use_id?: string }) => block.type === 'tool_result' && block.tool_use_id === toolUseId)
      if (found) return JSON.stringify(found.content)
    }
  }
  return ''
}

test('the agent asks to plan; the user edits the plan and approves it with auto-accepted edits', async ({ app, projectDir, sousHome, modelServer }) => {
  const plan = '# Plan\n\n1. Rename the README heading\n2. Say <b>why</b> in `NOTES.md`'
  const notes = join(projectDir, 'NOTES.md')
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_enter', name: 'EnterPlanMode', input: {} }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_exit', name: 'ExitPlanMode', input: { plan } }] } },
    // acceptEdits: the Write runs without asking.
    { reply: { content: [{ type: 'tool_use', id: 'toolu_write', name: 'Write', input: { file_path: notes, content: 'Renamed for clarity.\n' } }] } },
    { reply: { content: [{ type: 'text', text: 'Plan carried out.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const mode = app.getByLabel('Status', { exact: true }).getByTestId('permission-mode')
  await expect(mode).toHaveText('Manual')
  await chat.getByRole('textbox', { name: 'Message' }).fill('Rename the heading, but plan first')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')

  const approvals = app.getByRole('region', { name: 'Approvals' })
  await expect(approvals).toContainText('EnterPlanMode')
  await approvals.getByRole('button', { name: 'Allow once' }).click()
  await expect(mode).toHaveText('Plan mode (read-only)')

  // The plan as Markdown: a heading, a list, code, and raw HTML shown as text.
  const rendered = approvals.getByRole('document', { name: 'Plan' })
  await expect(rendered.getByRole('heading', { name: 'Plan' })).toBeVisible()
  await expect(rendered.getByRole('listitem')).toHaveText(['Rename the README heading', 'Say <b>why</b> in NOTES.md'])
  await expect(rendered.locator('code')).toHaveText('NOTES.md')

  // The saved plan opens in the read-only viewer.
  await approvals.getByRole('button', { name: 'Open the plan file' }).click()
  const viewer = app.getByRole('dialog', { name: /\.claude\/plans\/.+\.md$/ })
  await expect(viewer).toContainText('Read-only')
  await expect(viewer.getByRole('textbox')).toBeAttached()
  await app.keyboard.press('Escape')
  await expect(viewer).toHaveCount(0)

  // Edit, preview, approve with auto-accepted edits.
  await approvals.getByRole('button', { name: 'Edit the plan' }).click()
  const editor = approvals.getByRole('textbox', { name: 'Plan (Markdown)' })
  await editor.fill(`${plan}\n3. Keep the old heading as a subtitle`)
  await approvals.getByRole('button', { name: 'Preview' }).click()
  await expect(rendered.getByRole('listitem')).toHaveCount(3)
  await expect(approvals.getByRole('status')).toHaveText('Edited: the agent will follow your version')
  await approvals.getByRole('button', { name: 'Approve and auto-accept edits' }).click()

  await expect(chat.getByLabel('Assistant').last()).toContainText('Plan carried out.')
  await expect(mode).toHaveText('Accept edits')
  expect(await readFile(notes, 'utf8')).toBe('Renamed for clarity.\n')
  const record = await modelServer.recorded()
  expect(record.failures).toEqual([])
  const result = toolResult(record, 'toolu_exit')
  expect(result).toContain('edits are accepted without asking')
  expect(result).toContain('The user edited the plan before approving it')
  expect(result).toContain('3. Keep the old heading as a subtitle')
  // The approved version is what the plan file holds now.
  const dir = join(sousHome, 'user-home', '.claude', 'plans')
  const texts = await Promise.all((await readdir(dir)).map((name) => readFile(join(dir, name), 'utf8')))
  expect(texts).toContain(`${plan}\n3. Keep the old heading as a subtitle\n`)
})

test('keep planning sends the feedback; the next plan approved to ask for each edit', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_plan1', name: 'ExitPlanMode', input: { plan: '1. Delete the tests' } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_plan2', name: 'ExitPlanMode', input: { plan: '1. Fix the failing test' } }] } },
    { reply: { content: [{ type: 'text', text: 'Starting with the test.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const mode = app.getByLabel('Status', { exact: true }).getByTestId('permission-mode')
  // The user starts in plan mode with /plan.
  const message = chat.getByRole('textbox', { name: 'Message' })
  await message.fill('/plan')
  await message.press('Enter')
  await expect(mode).toHaveText('Plan mode (read-only)')
  await message.fill('The build is red; what would you do?')
  await message.press('Enter')

  const approvals = app.getByRole('region', { name: 'Approvals' })
  const rendered = approvals.getByRole('document', { name: 'Plan' })
  await expect(rendered).toContainText('Delete the tests')
  await approvals.getByRole('textbox', { name: 'Feedback for the agent (sent with Keep planning)' }).fill('Never delete tests; find out why it fails.')
  // `n` in the panel is "keep planning".
  await rendered.click()
  await app.keyboard.press('n')
  await expect(rendered).toContainText('Fix the failing test')
  await expect(mode).toHaveText('Plan mode (read-only)')
  await approvals.getByRole('button', { name: 'Approve, ask for each edit' }).click()
  await expect(chat.getByLabel('Assistant').last()).toContainText('Starting with the test.')
  await expect(mode).toHaveText('Manual')

  const record = await modelServer.recorded()
  expect(record.failures).toEqual([])
  const kept = toolResult(record, 'toolu_plan1')
  expect(kept).toContain('The user wants you to keep planning; plan mode stays on. Their feedback: Never delete tests; find out why it fails.')
  const approved = toolResult(record, 'toolu_plan2')
  expect(approved).toContain('each edit is approved by the user')
  expect(approved).not.toContain('The user edited the plan')
})
