import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Types a command line into the terminal tab on screen. */
async function run(app: Page, panel: Locator, command: string): Promise<void> {
  await panel.locator('.xterm').click()
  await app.keyboard.type(command)
  await app.keyboard.press('Enter')
}

test('the terminal runs a real shell in the project folder', async ({ app, projectDir }) => {
  await openByPath(app, projectDir)
  const terminal = app.getByRole('region', { name: 'Terminal' })
  await expect(terminal.getByRole('status')).toHaveText('Running')
  // Only the selected tab's panel is visible; xterm's DOM renderer draws one div per row.
  const panel = terminal.getByRole('tabpanel')
  const rows = panel.locator('.xterm-rows > div')

  await run(app, panel, 'echo hi')
  // The echoed command line also contains "hi"; the output is a row that is exactly "hi".
  await expect(rows.filter({ hasText: /^\s*hi\s*$/ })).toHaveCount(1)

  await run(app, panel, 'pwd')
  await expect(rows.filter({ hasText: new RegExp(`^\\s*${escape(projectDir)}\\s*$`) })).toHaveCount(1)
})

test('two terminals each run a command, and each keeps its own output', async ({ app, projectDir }) => {
  await openByPath(app, projectDir)
  const terminal = app.getByRole('region', { name: 'Terminal' })
  const tabs = terminal.getByRole('tablist', { name: 'Terminals' })
  await expect(tabs.getByRole('tab')).toHaveText(['Agent', 'Terminal 1'])

  await expect(terminal.getByRole('status')).toHaveText('Running')
  await run(app, terminal.getByRole('tabpanel'), 'echo first-$((40+2))')
  await expect(
    terminal
      .getByRole('tabpanel')
      .locator('.xterm-rows > div')
      .filter({ hasText: /^\s*first-42\s*$/ }),
  ).toHaveCount(1)

  await terminal.getByRole('button', { name: 'New terminal' }).click()
  await expect(tabs.getByRole('tab', { name: 'Terminal 2' })).toHaveAttribute('aria-selected', 'true')
  await expect(terminal.getByRole('status')).toHaveText('Running')
  await run(app, terminal.getByRole('tabpanel'), 'echo second-$((6*7))')
  const second = terminal.getByRole('tabpanel', { name: 'Terminal 2' })
  await expect(second.locator('.xterm-rows > div').filter({ hasText: /^\s*second-42\s*$/ })).toHaveCount(1)
  await expect(second.locator('.xterm-rows > div').filter({ hasText: /first-42/ })).toHaveCount(0)

  // Back to the first with the keyboard: its output is still there, its shell still running.
  await tabs.getByRole('tab', { name: 'Terminal 2' }).focus()
  await app.keyboard.press('ArrowLeft')
  const first = terminal.getByRole('tabpanel', { name: 'Terminal 1' })
  await expect(first.locator('.xterm-rows > div').filter({ hasText: /^\s*first-42\s*$/ })).toHaveCount(1)

  // Find in the scrollback.
  await first.locator('.xterm').click()
  await app.keyboard.press('Control+Shift+F')
  const find = terminal.getByRole('searchbox', { name: 'Find in terminal' })
  await find.fill('no-such-text')
  await find.press('Enter')
  await expect(terminal.getByRole('search').getByRole('status')).toHaveText('No match')
  await find.fill('first-42')
  await find.press('Enter')
  await expect(terminal.getByRole('search').getByRole('status')).toHaveText('')
  await find.press('Escape')
  await expect(find).toBeHidden()

  // Closing a terminal selects its neighbour.
  await terminal.getByRole('button', { name: 'Close Terminal 1' }).click()
  await expect(tabs.getByRole('tab')).toHaveText(['Agent', 'Terminal 2'])
})
