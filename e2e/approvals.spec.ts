import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'
import type { ModelServer } from './support/model-server'

/**
 * Approvals through the real gate: `sous serve`, the session runtime, the scripted model. Every
 * Edit in default mode asks; what lands on disk is what was approved in the diff view, and the
 * next model request carries the tool_result that says so.
 */

const ORIGINAL = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', ''].join('\n')
// Two hunks: beta→BETA and zeta→ZETA, with unchanged lines between them.
const OLD = 'beta\ngamma\ndelta\nepsilon\nzeta'
const NEW = 'BETA\ngamma\ndelta\nepsilon\nZETA'

async function editScenario(modelServer: ModelServer, file: string): Promise<void> {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: file } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_edit', name: 'Edit', input: { file_path: file, old_string: OLD, new_string: NEW } }] } },
    { reply: { content: [{ type: 'text', text: 'Finished with the file.' }] } },
  ])
}

async function startEdit(app: Page, projectDir: string, modelServer: ModelServer): Promise<{ file: string; panel: ReturnType<Page['getByRole']> }> {
  const file = join(projectDir, 'notes.txt')
  await writeFile(file, ORIGINAL)
  await editScenario(modelServer, file)
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Capitalise two words in notes.txt')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel.getByTestId('edit-approval')).toBeVisible()
  await expect(panel.getByText('2 hunks')).toBeVisible()
  // The diff editor is there and both sides are filled in.
  await expect(panel.locator('.editor.modified .view-lines')).toContainText('BETA')
  await expect(panel.getByRole('button', { name: 'Accept all' })).toBeEnabled()
  return { file, panel }
}

/** The tool_result the model got for the edit (the request after the approval). */
async function editResult(modelServer: ModelServer): Promise<string> {
  const { requests } = await modelServer.recorded()
  const messages = requests.at(-1)?.body['messages'] as Array<{ content: unknown }>
  return JSON.stringify(messages.at(-1)?.content)
}

async function expectFinished(app: Page): Promise<void> {
  const chat = app.getByRole('region', { name: 'Chat' })
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')).toContainText('Finished with the file.')
  await expect(app.getByRole('region', { name: 'Approvals' })).toHaveCount(0)
}

test('an Edit accepted whole changes the file on disk', async ({ app, projectDir, modelServer }) => {
  const { file, panel } = await startEdit(app, projectDir, modelServer)
  // Typing in the composer while the approval waits must not reach the diff.
  await app.getByRole('textbox', { name: 'Message' }).type('draft while waiting')
  await expect(app.getByRole('textbox', { name: 'Message' })).toHaveValue('draft while waiting')
  await panel.getByRole('button', { name: 'Accept all' }).click()
  await expectFinished(app)
  expect(await readFile(file, 'utf8')).toBe(ORIGINAL.replace('beta', 'BETA').replace('zeta', 'ZETA'))
  expect(await editResult(modelServer)).not.toContain('The user')
})

test('Ctrl+Alt+Y / Ctrl+Alt+N do nothing while focus is in the diff editor or the composer', async ({ app, projectDir, modelServer }) => {
  const { file, panel } = await startEdit(app, projectDir, modelServer)
  await panel.locator('.editor.modified .view-lines').click()
  await app.keyboard.press('Control+Alt+y')
  await app.keyboard.press('Control+Alt+n')
  const input = app.getByRole('textbox', { name: 'Message' })
  await input.click()
  await app.keyboard.press('Control+Alt+n')
  await app.keyboard.press('Control+Alt+y')
  // Still waiting, nothing written; the reply comes only from outside a field.
  await expect(panel.getByRole('button', { name: 'Accept all' })).toBeEnabled()
  expect(await readFile(file, 'utf8')).toBe(ORIGINAL)
  await input.blur()
  await app.keyboard.press('Control+Alt+y')
  await expectFinished(app)
  expect(await readFile(file, 'utf8')).toBe(ORIGINAL.replace('beta', 'BETA').replace('zeta', 'ZETA'))
})

test('accepting one hunk of two writes only that hunk, and the model is told which', async ({ app, projectDir, modelServer }) => {
  const { file, panel } = await startEdit(app, projectDir, modelServer)
  await panel.getByRole('button', { name: 'Accept hunk 1' }).first().click()
  await panel.getByRole('button', { name: 'Reject hunk 2' }).first().click()
  await expect(panel.getByText('1 accepted · 1 rejected · 0 open')).toBeVisible()
  // The rejected hunk is back to the original on the proposed side.
  await expect(panel.locator('.editor.modified .view-lines')).not.toContainText('ZETA')
  const shot = process.env.SOUS_APPROVAL_SCREENSHOT
  if (shot) await app.screenshot({ path: resolve(shot) })
  await panel.getByRole('button', { name: /^Apply/ }).click()
  await expectFinished(app)
  expect(await readFile(file, 'utf8')).toBe(ORIGINAL.replace('beta', 'BETA'))
  const result = await editResult(modelServer)
  expect(result).toContain('Applied (1 of 2 hunks): hunk 1 (line 2)')
  expect(result).toContain('Rejected and not applied: hunk 2 (line 6)')
})

test('a proposal edited in the diff lands as edited, and the next request has the note', async ({ app, projectDir, modelServer }) => {
  const { file, panel } = await startEdit(app, projectDir, modelServer)
  const modified = panel.locator('.editor.modified')
  await modified.getByText('BETA', { exact: true }).click()
  await app.keyboard.press('End')
  await app.keyboard.type(' (reviewed)')
  await expect(modified.locator('.view-lines')).toContainText('BETA (reviewed)')
  await panel.getByRole('button', { name: 'Accept all' }).click()
  await expectFinished(app)
  expect(await readFile(file, 'utf8')).toBe(ORIGINAL.replace('beta', 'BETA (reviewed)').replace('zeta', 'ZETA'))
  const result = await editResult(modelServer)
  expect(result).toContain('The user edited your proposed change')
  expect(result).toContain('+BETA (reviewed)')
})

test('a rejection with a reason leaves the file alone and tells the model why', async ({ app, projectDir, modelServer }) => {
  const { file, panel } = await startEdit(app, projectDir, modelServer)
  await panel.getByRole('textbox', { name: 'Reason for rejecting (sent to the agent)' }).fill('keep the words lower case')
  await panel.getByRole('button', { name: 'Reject all' }).click()
  await expectFinished(app)
  expect(await readFile(file, 'utf8')).toBe(ORIGINAL)
  const result = await editResult(modelServer)
  expect(result).toContain('keep the words lower case')
  expect(result).toContain('"is_error":true')
})

test('a Bash command allowed "always" is saved as a rule and runs without asking next time', async ({ app, projectDir, modelServer }) => {
  const command = 'touch made-by-agent.txt'
  const bash = (id: string) => ({ reply: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command, description: 'Create a file' } }] } })
  await modelServer.setScenario([bash('toolu_b1'), { reply: { content: [{ type: 'text', text: 'Created it.' }] } }, bash('toolu_b2'), { reply: { content: [{ type: 'text', text: 'Created it again.' }] } }])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const input = chat.getByRole('textbox', { name: 'Message' })
  await input.fill('Create the file')
  await input.press('Enter')

  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel.getByLabel('Command')).toHaveText(command)
  await expect(panel.getByTestId('approval-why')).toContainText('Asked because')
  await expect(panel.getByTestId('sandbox-coverage')).toBeVisible()
  const rule = panel.getByRole('textbox', { name: 'Rule to remember' })
  await expect(rule).not.toHaveValue('')
  const saved = await rule.inputValue()
  // The rule shows what it would allow; a broken rule cannot be saved.
  await expect(panel.getByTestId('rule-check')).toContainText(`Would allow: ${command}`)
  await rule.fill('Bash(touch')
  await expect(panel.getByRole('alert')).toContainText('This rule cannot be used')
  await expect(panel.getByRole('button', { name: 'Always' })).toBeDisabled()
  await rule.fill('Bash(ls *)')
  await expect(panel.getByTestId('rule-check')).toContainText(`Would still ask for: ${command}`)
  await rule.fill(saved)
  await expect(panel.getByTestId('rule-check')).toContainText(`Would allow: ${command}`)
  await panel.getByRole('button', { name: 'Always' }).click()
  const log = chat.getByRole('log', { name: 'Conversation' })
  await expect(log.getByLabel('Assistant').last()).toContainText('Created it.')
  expect(existsSync(join(projectDir, 'made-by-agent.txt'))).toBe(true)
  const settings = JSON.parse(await readFile(join(projectDir, '.claude', 'settings.local.json'), 'utf8')) as { permissions: { allow: string[] } }
  expect(settings.permissions.allow).toContain(saved)

  await input.fill('Once more')
  await input.press('Enter')
  await expect(log.getByLabel('Assistant').last()).toContainText('Created it again.')
  const { requests } = await modelServer.recorded()
  expect(JSON.stringify(requests.at(-1)?.body['messages'])).not.toContain('rejected')
  await expect(panel).toHaveCount(0)
})

test('a quoted compound command shows every rule it would save, as typed, and the check agrees with what runs', async ({ app, projectDir, modelServer }) => {
  const command = 'touch "my file.txt" && mkdir "a b"'
  const bash = (id: string) => ({ reply: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] } })
  await modelServer.setScenario([bash('toolu_q1'), { reply: { content: [{ type: 'text', text: 'Made them.' }] } }, bash('toolu_q2'), { reply: { content: [{ type: 'text', text: 'Made them again.' }] } }])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const input = chat.getByRole('textbox', { name: 'Message' })
  await input.fill('Make the file and the folder')
  await input.press('Enter')

  const panel = app.getByRole('region', { name: 'Approvals' })
  // Both rules it saves, each as Claude Code writes it: the command as typed.
  await expect(panel.getByRole('textbox', { name: 'Rule 1 of 2 to remember' })).toHaveValue('Bash(touch "my file.txt")')
  await expect(panel.getByRole('textbox', { name: 'Rule 2 of 2 to remember' })).toHaveValue('Bash(mkdir "a b")')
  const check = panel.getByTestId('rule-check')
  await expect(check).toContainText('Would allow: touch "my file.txt"mkdir "a b"')
  await expect(check).not.toContainText('Would still ask')
  // Quoted the other way, the rule still covers the command (the gate matches it so too).
  await panel.getByRole('textbox', { name: 'Rule 1 of 2 to remember' }).fill("Bash(touch 'my file.txt')")
  await expect(check).not.toContainText('Would still ask')
  await panel.getByRole('textbox', { name: 'Rule 2 of 2 to remember' }).fill('Bash(mkdir other)')
  await expect(check).toContainText('Would still ask for: mkdir "a b"')
  await panel.getByRole('textbox', { name: 'Rule 2 of 2 to remember' }).fill('Bash(mkdir "a b")')
  await expect(check).not.toContainText('Would still ask')
  await panel.getByRole('button', { name: 'This session' }).click()
  const log = chat.getByRole('log', { name: 'Conversation' })
  await expect(log.getByLabel('Assistant').last()).toContainText('Made them.')
  expect(existsSync(join(projectDir, 'my file.txt'))).toBe(true)

  // The session rules let the same command through without asking.
  await input.fill('Once more')
  await input.press('Enter')
  await expect(log.getByLabel('Assistant').last()).toContainText('Made them again.')
  await expect(panel).toHaveCount(0)
})

test('Stop during a long tool ends the turn and the command', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_sleep', name: 'Bash', input: { command: 'sleep 67.5; touch too-late.txt' } }] } },
    { reply: { content: [{ type: 'text', text: 'should not be needed' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Wait a minute')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const panel = app.getByRole('region', { name: 'Approvals' })
  await panel.getByRole('button', { name: 'Allow once' }).click()
  const reply = chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant')
  await expect(reply.getByLabel(/^Tool Bash: Running/)).toBeVisible()
  await expect.poll(() => running('sleep 67.5')).toBe(true)
  await chat.getByRole('button', { name: 'Stop' }).click()
  await expect(reply).toContainText('Stopped')
  await expect(chat.getByRole('button', { name: 'Send' })).toBeVisible()
  // The call was cut by the stop: interrupted, not failed.
  await expect(reply.getByRole('article', { name: 'Tool Bash: Interrupted' })).toBeVisible()
  // The command itself is gone, not just the turn.
  await expect.poll(() => running('sleep 67.5'), { timeout: 15_000 }).toBe(false)
  expect(existsSync(join(projectDir, 'too-late.txt'))).toBe(false)
})

/** Whether a process whose command line contains `text` is running (pgrep exits 1 when none is). */
function running(text: string): boolean {
  return spawnSync('pgrep', ['-f', text]).status === 0
}

test('a write through a symlink shows where it really lands, and a rejection leaves it unwritten', async ({ app, projectDir, modelServer }) => {
  // cfg -> .claude: a write to cfg/settings.local.json would plant project settings (and their hooks).
  await mkdir(join(projectDir, '.claude'), { recursive: true })
  await symlink('.claude', join(projectDir, 'cfg'))
  const target = join(projectDir, 'cfg', 'settings.local.json')
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_write', name: 'Write', input: { file_path: target, content: '{"hooks":{}}\n' } }] } },
    { reply: { content: [{ type: 'text', text: 'Finished with the file.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Write the local settings')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel.getByRole('note')).toContainText(`Through a symlink, this really writes ${join(await realpath(projectDir), '.claude', 'settings.local.json')}`)
  await expect(panel.getByTestId('approval-why')).toContainText('edits a settings file')
  await panel.getByRole('button', { name: 'Reject all' }).click()
  await expectFinished(app)
  expect(existsSync(join(projectDir, '.claude', 'settings.local.json'))).toBe(false)
})

test("a NotebookEdit asks with the notebook's JSON as the diff; accepted, the cell changes", async ({ app, projectDir, modelServer }) => {
  const file = join(projectDir, 'analysis.ipynb')
  const notebook = { cells: [{ cell_type: 'code', id: 'calc', metadata: {}, execution_count: 1, source: ['x = 1'], outputs: [] }], metadata: {}, nbformat: 4, nbformat_minor: 5 }
  await writeFile(file, `${JSON.stringify(notebook, null, 1)}\n`)
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: file } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_nb', name: 'NotebookEdit', input: { notebook_path: file, cell_id: 'calc', new_source: 'x = 42' } }] } },
    { reply: { content: [{ type: 'text', text: 'Finished with the file.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Change the cell')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel.getByTestId('edit-approval')).toBeVisible()
  await expect(panel.locator('.editor.modified .view-lines')).toContainText('"source": "x = 42"')
  await panel.getByRole('button', { name: 'Accept all' }).click()
  await expectFinished(app)
  expect(JSON.parse(await readFile(file, 'utf8')).cells[0].source).toBe('x = 42')
  expect(await editResult(modelServer)).toContain('Updated cell calc with x = 42')
})
