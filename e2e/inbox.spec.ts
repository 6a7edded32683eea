import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * The attention inbox across projects and pages: three approvals from three projects are counted
 * in the title and the top bar, listed in one inbox, each one click (or Enter) from its card; an
 * answer on a second page of the same `sous serve` withdraws it on both. Nothing takes the focus
 * by itself.
 */

async function prompt(page: Page, text: string): Promise<void> {
  const message = page.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  await message.fill(text)
  await message.press('Enter')
}

/** What has the focus on `page`: its accessible label or its tag. */
const focusedOn = (page: Page) =>
  page.evaluate(() => {
    const active = (globalThis as unknown as { document: { activeElement: { tagName: string; getAttribute(name: string): string | null } | null } }).document.activeElement
    return active?.getAttribute('aria-label') ?? active?.tagName
  })

const bash = (id: string, command: string) => ({ reply: { content: [{ type: 'tool_use', id, name: 'Bash', input: { command, description: 'Write a marker' } }] } })

test('three approvals from three projects: counted everywhere, answered on another page, withdrawn everywhere', async ({ app, projectDir, modelServer }) => {
  await app.setViewportSize({ width: 1440, height: 900 })
  const others = await Promise.all([1, 2].map(async () => realpath(await mkdtemp(join(tmpdir(), 'sous-e2e-inbox-')))))
  try {
    for (const dir of others) await writeFile(join(dir, 'README.md'), '# another project\n')
    const dirs = [projectDir, ...others]
    await modelServer.setScenario([
      bash('toolu_one', 'echo one > one.txt'),
      bash('toolu_two', 'echo two > two.txt'),
      bash('toolu_three', 'echo three > three.txt'),
      { reply: { content: [{ type: 'text', text: 'Marker written.' }] } },
      { reply: { content: [{ type: 'text', text: 'Marker written.' }] } },
      { reply: { content: [{ type: 'text', text: 'Marker written.' }] } },
    ])
    for (const [index, dir] of dirs.entries()) {
      if (index > 0) await app.getByRole('button', { name: 'Open another…' }).click()
      await openByPath(app, dir)
      await prompt(app, `write marker ${index + 1}`)
      await expect(app.getByRole('region', { name: 'Approvals' })).toBeVisible()
    }
    await expect(app).toHaveTitle('(3) Sous')
    await expect(app.getByRole('button', { name: 'Inbox, 3 waiting' })).toBeVisible()
    const focused = await focusedOn(app)

    // A second page on the same host sees the same three.
    const second = await app.context().newPage()
    await second.setViewportSize({ width: 1280, height: 720 })
    await second.goto(app.url())
    await expect(second).toHaveTitle('(3) Sous')
    await second.getByRole('button', { name: 'Inbox, 3 waiting' }).click()
    const inbox = second.getByRole('dialog', { name: 'Inbox' })
    const list = inbox.getByRole('list', { name: 'Waiting for you' })
    await expect(list.getByRole('listitem')).toHaveCount(3)
    for (const dir of dirs) await expect(list).toContainText(basename(dir))
    // One click from its card: the second project's entry opens that project and session there.
    await list.getByRole('button', { name: `Approval in ${basename(others[0]!)}: Bash: echo two > two.txt` }).click()
    const card = second.getByRole('region', { name: 'Approvals' })
    await expect(card).toContainText('echo two > two.txt')
    await expect(card).toBeFocused()
    await card.getByRole('button', { name: 'Allow once' }).click()
    await expect(second.getByRole('region', { name: 'Chat' }).getByLabel('Assistant').last()).toContainText('Marker written.')

    // Withdrawn everywhere: two approvals left on both pages. The first page also lists that the
    // second project's run finished (its session is not on screen there): three entries in all.
    const approvals = (page: Page) => page.getByRole('dialog', { name: 'Inbox' }).locator('[data-kind="approval"]')
    await second.keyboard.press('Alt+Shift+I')
    await expect(approvals(second)).toHaveCount(2)
    await second.keyboard.press('Escape')
    await expect(app).toHaveTitle('(3) Sous')
    // The first page did not move its focus for any of it.
    expect(await focusedOn(app)).toBe(focused)

    // On the first page, by keyboard: the inbox, the first entry, Enter — and its card has the focus.
    await app.keyboard.press('Alt+Shift+I')
    const firstInbox = app.getByRole('dialog', { name: 'Inbox' })
    await expect(approvals(app)).toHaveCount(2)
    await expect(firstInbox.getByRole('button', { name: `Finished in ${basename(others[0]!)}: Finished` })).toBeVisible()
    await expect(firstInbox.getByRole('button', { name: `Approval in ${basename(projectDir)}: Bash: echo one > one.txt` })).toBeFocused()
    await app.keyboard.press('ArrowDown')
    await expect(firstInbox.getByRole('button', { name: `Approval in ${basename(others[1]!)}: Bash: echo three > three.txt` })).toBeFocused()
    await app.keyboard.press('ArrowUp')
    await app.keyboard.press('Enter')
    const firstCard = app.getByRole('region', { name: 'Approvals' })
    await expect(firstCard).toContainText('echo one > one.txt')
    await expect(firstCard).toBeFocused()
    await firstCard.getByRole('button', { name: 'Reject' }).click()
    await expect(app.getByRole('region', { name: 'Chat' }).getByLabel('Assistant').last()).toContainText('Marker written.')
    // Gone from the second page too: one approval is left there.
    await second.keyboard.press('Alt+Shift+I')
    await expect(approvals(second)).toHaveCount(1)
    await expect(approvals(second)).toContainText(basename(others[1]!))
    // Answer the last one too: the host (shared by the specs of this worker) is left with nothing pending.
    await approvals(second).getByRole('button').first().click()
    await second.getByRole('region', { name: 'Approvals' }).getByRole('button', { name: 'Reject' }).click()
    await app.keyboard.press('Alt+Shift+I')
    await expect(approvals(app)).toHaveCount(0)
    await second.close()
  } finally {
    await Promise.all(others.map((dir) => rm(dir, { recursive: true, force: true })))
  }
})

test('a command waiting for input badges the Agent tab and waits in the inbox; answering it clears both', async ({ app, projectDir, modelServer }) => {
  await app.setViewportSize({ width: 1280, height: 720 })
  await modelServer.setScenario([
    bash('toolu_ask', 'read -p "Your name? " name; echo "hello $name"'),
    { reply: { content: [{ type: 'text', text: 'Greeted.' }] } },
  ])
  await openByPath(app, projectDir)
  await prompt(app, 'ask my name')
  const card = app.getByRole('region', { name: 'Approvals' })
  await card.getByRole('button', { name: 'Allow once' }).click()
  // The project opened on a shell: the Agent tab is not in front, and nothing switches to it.
  const agentTab = app.getByRole('tab', { name: 'Agent (waiting for input)' })
  await expect(agentTab).toBeVisible()
  await expect(agentTab).toHaveAttribute('aria-selected', 'false')
  await expect(app).toHaveTitle('(1) Sous')

  await app.keyboard.press('Alt+Shift+I')
  const inbox = app.getByRole('dialog', { name: 'Inbox' })
  await inbox.getByRole('button', { name: /^Input in .*: Waits for input: read -p/ }).click()
  await expect(app.getByRole('tab', { name: /^Agent/ })).toHaveAttribute('aria-selected', 'true')
  await expect(app.locator('[role="tabpanel"]:not([hidden]) .xterm-helper-textarea')).toBeFocused()
  await app.keyboard.type('Ada')
  await app.keyboard.press('Enter')
  await expect(app.getByRole('region', { name: 'Chat' }).getByLabel('Assistant').last()).toContainText('Greeted.')
  await expect(app.getByRole('tab', { name: 'Agent', exact: true })).toBeVisible()
  await expect(app).toHaveTitle('Sous')
})
