import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath, sendMessage } from './support/app'

// The session timeline under the conversation (issue 26 point 4) through `sous serve` in Chromium,
// against the scripted model server: marks for the turn, the calls and a subagent's lane; a click
// on a mark focuses its card; the keyboard moves along the strip; a finished session replays step
// by step without a model request; and the HTML replay export cannot run a script the transcript
// carries.

/** A turn that reads a file itself, then has a subagent read one. */
function scenario(projectDir: string) {
  return [
    { reply: { content: [{ type: 'text', text: 'Let me look.' }, { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: join(projectDir, 'README.md') } }] } },
    // A command that writes a file: it asks first.
    { reply: { content: [{ type: 'tool_use', id: 'toolu_bash', name: 'Bash', input: { command: 'echo timeline-output | tee out.txt', description: 'Write the output' } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_agent', name: 'Agent', input: { description: 'Survey the notes', prompt: 'Read notes.txt.' } }] } },
    // The subagent.
    { reply: { content: [{ type: 'tool_use', id: 'toolu_sub_read', name: 'Read', input: { file_path: join(projectDir, 'notes.txt') } }] } },
    { reply: { content: [{ type: 'text', text: 'The notes are short.' }] } },
    { reply: { content: [{ type: 'text', text: 'All done here.' }] } },
  ]
}

async function paletteCommand(app: Page, text: string): Promise<void> {
  await app.keyboard.press('Control+Shift+P')
  const command = app.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
  await command.fill(text)
  await command.press('Enter')
}

test('the timeline marks the turn, the calls and a subagent lane; a mark leads to its card; a finished session replays step by step', async ({ app, projectDir, modelServer, sousHome }) => {
  await writeFile(join(projectDir, 'notes.txt'), 'short notes\n')
  // The user's own hook (no trust step): it fires before the command, on its mark's lane.
  const userSettings = join(sousHome, 'settings.json')
  const settings = JSON.parse(await readFile(userSettings, 'utf8')) as Record<string, unknown>
  await writeFile(userSettings, JSON.stringify({ ...settings, hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 0' }] }] } }))
  await modelServer.setScenario(scenario(projectDir))
  await openByPath(app, projectDir)
  const chat = await sendMessage(app, 'Survey the project')
  const log = chat.getByRole('log', { name: 'Conversation' })
  await app.getByRole('region', { name: 'Approvals' }).getByRole('button', { name: 'Allow once' }).click()
  await expect(log.getByLabel('Assistant').last()).toContainText('All done here.')

  const strip = chat.getByRole('toolbar', { name: 'Session timeline' })
  const mainLane = strip.getByRole('group', { name: 'Main agent' })
  const subLane = strip.getByRole('group', { name: 'Subagent general-purpose: Survey the notes' })
  await expect(mainLane.getByRole('button', { name: 'Turn 1: Survey the project' })).toBeVisible()
  await expect(mainLane.getByRole('button', { name: `Read ${join(projectDir, 'README.md')}` })).toBeVisible()
  await expect(mainLane.getByRole('button', { name: 'Agent general-purpose: Survey the notes' })).toBeVisible()
  await expect(mainLane.getByRole('button', { name: /^Bash/ })).toHaveAccessibleName('Bash: echo timeline-output | tee out.txt')
  await expect(mainLane.getByRole('button', { name: 'Approval for Bash — allowed once' })).toBeVisible()
  const subRead = subLane.getByRole('button', { name: `Read ${join(projectDir, 'notes.txt')}` })
  await expect(subRead).toBeVisible()

  // A click on a mark focuses its card; a subagent's mark leads to the Agent call it runs under.
  await mainLane.getByRole('button', { name: `Read ${join(projectDir, 'README.md')}` }).click()
  await expect(log.getByRole('article', { name: 'Tool Read: Done' })).toBeFocused()
  await subRead.click()
  await expect(log.getByRole('article', { name: 'Tool Agent: Done' })).toBeFocused()

  // Hover and focus name the step and its files: a command's from the checkpoints around it.
  await subRead.hover()
  await expect(chat.getByRole('tooltip')).toContainText('No files changed')
  await mainLane.getByRole('button', { name: /^Bash/ }).hover()
  await expect(chat.getByRole('tooltip')).toContainText('Files changed: out.txt')
  await expect(mainLane.getByRole('button', { name: 'Hook PreToolUse (Bash): exit 0' })).toBeVisible()
  // The keyboard: one tab stop, arrows along the axis and between lanes, Home and End.
  await subRead.focus()
  await app.keyboard.press('Home')
  await expect(mainLane.getByRole('button', { name: 'Turn 1: Survey the project' })).toBeFocused()
  await expect(chat.getByRole('tooltip')).toContainText('Turn 1: Survey the project')
  await app.keyboard.press('ArrowRight')
  await expect(mainLane.getByRole('button', { name: `Read ${join(projectDir, 'README.md')}` })).toBeFocused()
  await app.keyboard.press('ArrowDown')
  await expect(subRead).toBeFocused()
  await app.keyboard.press('Enter')
  await expect(log.getByRole('article', { name: 'Tool Agent: Done' })).toBeFocused()

  const requestsBefore = (await modelServer.recorded()).requests.length
  // Replay: from the transcripts, step by step.
  const replay = chat.getByRole('toolbar', { name: 'Replay' })
  await replay.getByRole('button', { name: 'Replay session' }).click()
  const status = replay.getByRole('status')
  await expect(status).toHaveText(/^Step 0 of \d+$/)
  await expect(log).not.toContainText('Survey the project')
  await replay.getByRole('button', { name: 'Step forward' }).click()
  await expect(status).toHaveText(/^Step 1 of \d+$/)
  await expect(log.getByLabel('You')).toHaveText('Survey the project')
  await expect(log).not.toContainText('Let me look.')
  await replay.getByRole('button', { name: 'Step forward' }).click()
  await replay.getByRole('button', { name: 'Step forward' }).click()
  await expect(log).toContainText('Let me look.')
  await expect(log).not.toContainText('All done here.')
  // Steps still to come are dimmed; a click on one moves the replay there and shows its card.
  await mainLane.getByRole('button', { name: 'Agent general-purpose: Survey the notes' }).click()
  await expect(log.getByRole('article', { name: /^Tool Agent: / })).toBeFocused()
  await expect(log).not.toContainText('All done here.')
  await replay.getByRole('button', { name: 'Step back' }).click()
  await expect(log.getByRole('article', { name: /^Tool Agent: / })).toHaveCount(0)

  // The Agent terminal shows the commands that had ended by the replay's step.
  const terminal = app.getByRole('region', { name: 'Terminal' })
  await terminal.getByRole('tab', { name: 'Agent' }).click()
  const rows = terminal.getByRole('tabpanel', { name: 'Agent' }).locator('.xterm-rows > div')
  await expect(rows.filter({ hasText: 'Replay: the session as recorded' })).toHaveCount(1)
  await expect(rows.filter({ hasText: '$ echo timeline-output | tee out.txt' })).toHaveCount(1)
  await expect(rows.filter({ hasText: /^\s*timeline-output\s*$/ })).toHaveCount(1)
  await replay.getByRole('button', { name: 'Step back' }).click()
  // Played at 20× it reaches the end.
  await replay.getByRole('combobox', { name: 'Replay speed' }).selectOption('20')
  await replay.getByRole('button', { name: 'Play', exact: true }).click()
  await expect(log.getByLabel('Assistant').last()).toContainText('All done here.')
  await expect(replay.getByRole('button', { name: 'Play', exact: true })).toBeVisible()
  const [, last, total] = /^Step (\d+) of (\d+)$/.exec((await status.textContent()) ?? '') ?? []
  expect(last).toBe(total)
  await replay.getByRole('button', { name: 'Exit replay' }).click()
  await expect(log.getByLabel('Assistant').last()).toContainText('All done here.')
  await expect(replay.getByRole('button', { name: 'Replay session' })).toBeVisible()
  // Nothing of the replay asked the model.
  expect((await modelServer.recorded()).requests.length).toBe(requestsBefore)

  // The palette hides and shows the strip.
  await paletteCommand(app, 'Show or hide the session timeline')
  await expect(strip).toHaveCount(0)
  await paletteCommand(app, 'Show or hide the session timeline')
  await expect(strip).toBeVisible()

  // A stored session opened later has its timeline, subagent lane included.
  await app.reload()
  await openByPath(app, projectDir)
  await app.getByRole('region', { name: 'Sessions' }).getByRole('button', { name: 'Open session Survey the project' }).click()
  const stored = app.getByRole('toolbar', { name: 'Session timeline' })
  await expect(stored.getByRole('group', { name: 'Subagent general-purpose: Survey the notes' }).getByRole('button')).toHaveCount(1)
  // Its transcript recorded the hook and the approval: they are on its timeline too.
  await expect(stored.getByRole('group', { name: 'Main agent' }).getByRole('button', { name: 'Approval for Bash — allowed once' })).toBeVisible()
  await expect(stored.getByRole('group', { name: 'Main agent' }).getByRole('button', { name: 'Hook PreToolUse (Bash): exit 0' })).toBeVisible()
  await stored.getByRole('group', { name: 'Main agent' }).getByRole('button', { name: /^Bash/ }).hover()
  await expect(app.getByRole('tooltip')).toContainText('Files changed: out.txt')
})

test('the HTML replay export shows a transcript’s <script> as text and never runs it', async ({ app, projectDir, modelServer }) => {
  const hostile = '</script><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'
  await writeFile(join(projectDir, 'hostile.html'), `${hostile}\n<!-- <script>window.pwned = 3</script>\n`)
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_hostile', name: 'Read', input: { file_path: join(projectDir, 'hostile.html') } }] } },
    { reply: { content: [{ type: 'text', text: `It says ${hostile}` }] } },
  ])
  await openByPath(app, projectDir)
  const chat = await sendMessage(app, `Read it <script>window.pwned = 4</script>`)
  await expect(chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant').last()).toContainText('It says')

  const saved = app.waitForEvent('download')
  await paletteCommand(app, 'Export this session as an HTML replay')
  const download = await saved
  expect(download.suggestedFilename()).toMatch(/\.replay\.html$/)
  const file = join(projectDir, '..', `replay-${Date.now()}.html`)
  await download.saveAs(file)
  expect(await readFile(file, 'utf8')).toContain('sous-replay-data')

  const page = await app.context().newPage()
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  await page.goto(pathToFileURL(file).href)
  const replay = page.getByRole('toolbar', { name: 'Replay' })
  const log = page.getByRole('log', { name: 'Conversation' })
  await expect(replay.getByRole('status')).toHaveText(/^Step 0 of \d+$/)
  await replay.getByRole('button', { name: 'Step forward' }).click()
  await expect(log).toContainText('Read it <script>window.pwned = 4</script>')
  await replay.getByRole('combobox', { name: 'Replay speed' }).selectOption('20')
  await replay.getByRole('button', { name: 'Play', exact: true }).click()
  await expect(log).toContainText(`It says ${hostile}`)
  await expect(log).toContainText('<!-- <script>window.pwned = 3</script>')
  // Only the page's own script ran: nothing from the transcript became an element.
  expect(await page.evaluate('window.pwned')).toBeUndefined()
  expect(await page.evaluate('document.querySelectorAll("script").length')).toBe(2)
  expect(await page.evaluate('document.querySelectorAll("img").length')).toBe(0)
  expect(problems).toEqual([])
  await page.close()
})
