import type { Locator, Page } from '@playwright/test'
import { mkdtemp, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

// A page reload keeps the workspace: the open projects and the one on screen, the session the chat
// showed, and the extra shells, which are still running in the host and are taken up again with
// their output (not started anew).

async function run(app: Page, panel: Locator, command: string): Promise<void> {
  await panel.locator('.xterm').click()
  await app.keyboard.type(command)
  await app.keyboard.press('Enter')
}

const line = (panel: Locator, pattern: RegExp) => panel.locator('.xterm-rows > div').filter({ hasText: pattern })

test('after a reload the open projects, the session on screen and the extra shells come back, the shells still the same processes', async ({ app, projectDir, modelServer }) => {
  const other = await realpath(await mkdtemp(join(tmpdir(), 'sous-e2e-other-')))
  await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'Hello from before the reload.' }] } }])
  await openByPath(app, other)
  await app.getByRole('button', { name: 'Open another…' }).click()
  await openByPath(app, projectDir)

  const chat = app.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill('Say hello')
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Hello from before the reload.')

  const terminal = app.getByRole('region', { name: 'Terminal' })
  await terminal.getByRole('button', { name: 'New terminal' }).click()
  const second = terminal.getByRole('tabpanel', { name: 'Terminal 2' })
  await expect(terminal.getByRole('status')).toHaveText('Running')
  // The shell's own process id, to show after the reload that it is the same shell.
  await run(app, second, 'echo "pid-$$" && echo before-$((40+2))')
  await expect(line(second, /^\s*before-42\s*$/)).toHaveCount(1)
  const pid = /pid-(\d+)/.exec((await line(second, /^\s*pid-\d+\s*$/).textContent()) ?? '')?.[1]
  expect(pid).toBeDefined()

  await app.reload()

  // Both projects are open again, the same one on screen.
  await expect(app.getByLabel('Current project')).toContainText(projectDir)
  await expect(app.getByRole('tablist', { name: 'Open projects' }).getByRole('tab')).toHaveText([basename(other), basename(projectDir)])
  // Its session is back in the chat.
  await expect(chat.getByLabel('Assistant').last()).toContainText('Hello from before the reload.')
  // Terminal 2 is back and selected, drawing what the shell said before, and it is the same shell.
  const tabs = terminal.getByRole('tablist', { name: 'Terminals' })
  await expect(tabs.getByRole('tab')).toHaveText(['Agent', 'Terminal 1', 'Terminal 2'])
  await expect(tabs.getByRole('tab', { name: 'Terminal 2' })).toHaveAttribute('aria-selected', 'true')
  const again = terminal.getByRole('tabpanel', { name: 'Terminal 2' })
  await expect(line(again, /^\s*before-42\s*$/)).toHaveCount(1)
  await expect(terminal.getByRole('status')).toHaveText('Running')
  await run(app, again, 'echo "now-$$"')
  await expect(line(again, new RegExp(`^\\s*now-${pid}\\s*$`))).toHaveCount(1)
  await rm(other, { recursive: true, force: true })
})
