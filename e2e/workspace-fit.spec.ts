import { mkdir, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * The frame around the work, by geometry and computed style (no screenshots): dialogs are modal,
 * an approval never pushes the composer, Stop or the status bar out of the window, and the newest
 * message is in view after each turn.
 */

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]

async function prompt(app: Page, text: string): Promise<void> {
  const message = app.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  await message.fill(text)
  await message.press('Enter')
}

/** Whether the element's box lies wholly inside the window. */
async function expectInViewport(app: Page, element: Locator, what: string): Promise<void> {
  const box = await element.boundingBox()
  const viewport = app.viewportSize()
  expect(box, `${what} has a box`).not.toBeNull()
  if (!box || !viewport) return
  expect(box.y, `${what} top`).toBeGreaterThanOrEqual(0)
  expect(box.x, `${what} left`).toBeGreaterThanOrEqual(0)
  expect(box.y + box.height, `${what} bottom`).toBeLessThanOrEqual(viewport.height + 0.5)
  expect(box.x + box.width, `${what} right`).toBeLessThanOrEqual(viewport.width + 0.5)
}

/** The conversation is scrolled to its end and the last assistant message is inside it. */
async function expectNewestInView(app: Page): Promise<void> {
  const log = app.getByRole('region', { name: 'Chat' }).getByRole('log', { name: 'Conversation' })
  await expect
    .poll(() => log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight))
    .toBeLessThan(2)
  const last = log.getByLabel('Assistant').last()
  const [logBox, lastBox] = [await log.boundingBox(), await last.boundingBox()]
  expect(lastBox && logBox && lastBox.y + lastBox.height <= logBox.y + logBox.height + 1).toBe(true)
}

const longReply = (label: string) => ({
  reply: { content: [{ type: 'text', text: `${label}\n\n${Array.from({ length: 30 }, (_, i) => `- ${label} line ${i + 1}`).join('\n')}` }] },
})

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} the trust dialog is modal over a backdrop and leaves the workspace as it was`, async ({ app, projectDir }) => {
    await app.setViewportSize(size)
    await mkdir(join(projectDir, '.claude'))
    await writeFile(join(projectDir, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(make *)'] } }))
    await openByPath(app, projectDir)
    const dialog = app.getByRole('dialog', { name: `Trust the files in ${basename(projectDir)}?` })
    await expect(dialog).toBeVisible()
    const chat = app.getByRole('region', { name: 'Chat' })
    const underneath = await chat.boundingBox()

    const backdrop = dialog.locator('xpath=..')
    await expect(backdrop).toHaveCSS('position', 'fixed')
    await expect(backdrop).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)')
    await expect(backdrop).not.toHaveCSS('z-index', 'auto')
    const viewport = app.viewportSize()!
    expect(await backdrop.boundingBox()).toEqual({ x: 0, y: 0, width: viewport.width, height: viewport.height })
    // The dialog has a surface of its own over the page.
    await expect(dialog).not.toHaveCSS('background-color', 'rgba(0, 0, 0, 0)')
    await expect(dialog).not.toHaveCSS('border-top-left-radius', '0px')

    await dialog.getByRole('button', { name: 'Don’t trust' }).click()
    await expect(dialog).toBeHidden()
    // The dialog took no room from the workspace.
    expect(await chat.boundingBox()).toEqual(underneath)
  })
}

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} an edit approval keeps the composer, Stop and the status bar in view`, async ({ app, projectDir, modelServer }) => {
    await app.setViewportSize(size)
    const file = join(projectDir, 'long.txt')
    const original = Array.from({ length: 120 }, (_, i) => `line ${i + 1}`).join('\n')
    await writeFile(file, `${original}\n`)
    const changed = original.replace('line 3\n', 'LINE 3\n').replace('line 60\n', 'LINE 60\n').replace('line 110\n', 'LINE 110\n')
    await modelServer.setScenario([
      longReply('Warm-up'),
      { reply: { content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: file } }] } },
      { reply: { content: [{ type: 'text', text: 'Rewriting the file.' }, { type: 'tool_use', id: 'toolu_write', name: 'Write', input: { file_path: file, content: `${changed}\n` } }] } },
      { reply: { content: [{ type: 'text', text: 'All three hunks done.' }] } },
    ])
    await openByPath(app, projectDir)
    await prompt(app, 'Say something long')
    const chat = app.getByRole('region', { name: 'Chat' })
    await expect(chat.getByLabel('Assistant').last()).toContainText('Warm-up line 30')
    await prompt(app, 'Rewrite long.txt')
    const panel = app.getByRole('region', { name: 'Approvals' })
    await expect(panel.getByTestId('edit-approval')).toBeVisible()
    await expect(panel.locator('.editor.modified .view-lines')).toContainText('LINE')

    await expectInViewport(app, chat.getByRole('textbox', { name: 'Message' }), 'the composer')
    await expectInViewport(app, chat.getByRole('button', { name: 'Stop' }), 'Stop')
    await expectInViewport(app, chat.getByLabel('Status', { exact: true }), 'the status bar')
    // The card's own buttons are reachable: the card scrolls within the chat.
    await panel.getByRole('button', { name: 'Accept all' }).scrollIntoViewIfNeeded()
    await expectInViewport(app, panel.getByRole('button', { name: 'Accept all' }), 'Accept all')
    await panel.getByRole('button', { name: 'Accept all' }).click()
    await expect(chat.getByLabel('Assistant').last()).toContainText('All three hunks done.')
    await expectNewestInView(app)
  })
}

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} the newest message is in view after each turn, also while a terminal has the focus`, async ({ app, projectDir, modelServer }) => {
    await app.setViewportSize(size)
    const file = join(projectDir, 'notes.txt')
    await writeFile(file, 'alpha\nbeta\n')
    await modelServer.setScenario([
      longReply('First'),
      { reply: { content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: file } }] } },
      { reply: { content: [{ type: 'tool_use', id: 'toolu_edit', name: 'Edit', input: { file_path: file, old_string: 'beta', new_string: 'BETA' } }] } },
      longReply('After the approval'),
      { ...longReply('While the terminal has focus'), delayMs: 60 },
    ])
    await openByPath(app, projectDir)
    const chat = app.getByRole('region', { name: 'Chat' })
    await prompt(app, 'one')
    await expect(chat.getByLabel('Assistant').last()).toContainText('First line 30')
    await expectNewestInView(app)

    await prompt(app, 'edit it')
    const panel = app.getByRole('region', { name: 'Approvals' })
    await panel.getByRole('button', { name: 'Accept all' }).click()
    await expect(chat.getByLabel('Assistant').last()).toContainText('After the approval line 30')
    await expect(panel).toHaveCount(0)
    await expectNewestInView(app)

    await prompt(app, 'three')
    await app.getByRole('region', { name: 'Terminal' }).locator('.xterm-helper-textarea').first().focus()
    await expect(chat.getByLabel('Assistant').last()).toContainText('While the terminal has focus line 30')
    await expect(chat.locator('.pane__header').getByRole('status')).toHaveText('')
    await expectNewestInView(app)
  })
}

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} the status bar is one line and names the configured model before the first turn; Settings shows the endpoint in use`, async ({ app, projectDir, modelServer }) => {
    await app.setViewportSize(size)
    await openByPath(app, projectDir)
    const bar = app.getByRole('region', { name: 'Chat' }).getByLabel('Status', { exact: true })
    // No ANTHROPIC_MODEL in the e2e environment: Sous's default model.
    await expect(bar).toContainText('claude-sonnet-4-6')
    await expect(bar).not.toContainText('no model yet')
    // One line: every item's vertical extent overlaps every other's (a wrapped item starts below).
    const expectOneLine = async () => {
      const rows = await bar.locator(':scope > *').evaluateAll((items) => items.map((item) => [item.getBoundingClientRect().top, item.getBoundingClientRect().bottom] as const))
      expect(Math.max(...rows.map(([top]) => top))).toBeLessThan(Math.min(...rows.map(([, bottom]) => bottom)))
    }
    await expectOneLine()
    // Still one line once a turn filled in the context, tokens, cost and cache share.
    await modelServer.setScenario([{ reply: { content: [{ type: 'text', text: 'Counted.' }], usage: { input_tokens: 12_345, output_tokens: 678 } } }])
    await prompt(app, 'count')
    await expect(app.getByRole('region', { name: 'Chat' }).getByLabel('Assistant').last()).toContainText('Counted.')
    await expect(bar.getByTestId('session-cost')).not.toHaveText('$0.00')
    await expectOneLine()

    await app.getByRole('button', { name: 'Settings' }).click()
    const settings = app.getByRole('dialog', { name: 'Settings' })
    // ANTHROPIC_BASE_URL points at the scripted model server, not the default.
    await expect(settings.getByRole('textbox', { name: 'Base URL' })).toHaveAttribute('placeholder', modelServer.url)
    await expect(settings.getByTestId('endpoint-in-use')).toContainText(`${modelServer.url} (from ANTHROPIC_BASE_URL)`)
  })
}

test('the status bar shows the task in progress only while a turn runs', async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_c1', name: 'TaskCreate', input: { subject: 'Write the parser', description: 'Tokens first', activeForm: 'Writing the parser' } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_u1', name: 'TaskUpdate', input: { taskId: '1', status: 'in_progress' } }] } },
    // Held for a moment so the running turn's activity can be seen.
    { reply: { content: [{ type: 'text', text: 'Stopping here for now; the parser is half done.' }] }, delayMs: 400 },
  ])
  await openByPath(app, projectDir)
  await prompt(app, 'Start the parser')
  const activity = app.getByLabel('Status', { exact: true }).getByTestId('task-activity')
  await expect(activity).toHaveText('Writing the parser…')
  const chat = app.getByRole('region', { name: 'Chat' })
  await expect(chat.getByLabel('Assistant').last()).toContainText('the parser is half done')
  // The task is still in progress in the list, but nothing is being done now.
  await expect(app.getByRole('region', { name: 'Tasks' }).getByTestId('task-status')).toHaveText('In progress')
  await expect(activity).toHaveCount(0)
})

test("each turn's footer shows what that turn spent, and the footers add up to the status bar", async ({ app, projectDir, modelServer }) => {
  await modelServer.setScenario([
    { reply: { content: [{ type: 'text', text: 'First.' }], usage: { input_tokens: 1200, output_tokens: 300 } } },
    { reply: { content: [{ type: 'text', text: 'Second.' }], usage: { input_tokens: 2000, output_tokens: 500 } } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  await prompt(app, 'one')
  await expect(chat.getByLabel('Assistant').last()).toContainText('First.')
  await prompt(app, 'two')
  await expect(chat.getByLabel('Assistant').last()).toContainText('Second.')
  const footers = chat.getByLabel('Usage')
  await expect(footers.nth(0)).toContainText(' · 300 out')
  // The second turn's own figures, not the session's 800 so far.
  await expect(footers.nth(1)).toContainText(' · 500 out')
  // The footers add up to the status bar's session total, tokens and cost.
  const figures = async (index: number) => {
    const text = (await footers.nth(index).textContent()) ?? ''
    const [, read, out, cost] = /^([\d,.]+k?) in.* · ([\d,.]+k?) out · \$([\d.]+)/.exec(text) ?? []
    // Past 10k a figure is shown in thousands with one decimal ("10.4k").
    const count = (figure = '') => (figure.endsWith('k') ? Number(figure.slice(0, -1)) * 1000 : Number(figure.replaceAll(',', '')))
    return { tokens: count(read) + count(out), cost: Number(cost) }
  }
  const [first, second] = [await figures(0), await figures(1)]
  const bar = chat.getByLabel('Status', { exact: true })
  // The bar and the footers write figures the same way (state/spend): exact below 10k, tenths of a thousand past it.
  const [, tokens = ''] = /^([\d,.]+k?) tokens$/.exec((await bar.getByTestId('session-tokens').textContent()) ?? '') ?? []
  const barTokens = tokens.endsWith('k') ? Number(tokens.slice(0, -1)) * 1000 : Number(tokens.replaceAll(',', ''))
  expect(Math.abs(barTokens - (first.tokens + second.tokens))).toBeLessThanOrEqual(150)
  const cost = Number(/\$([\d.]+)/.exec((await bar.getByTestId('session-cost').textContent()) ?? '')?.[1])
  expect(Math.abs(cost - (first.cost + second.cost))).toBeLessThan(0.011)
})

test('a call the user rejects is labelled Rejected, in a neutral colour, not Failed in red', async ({ app, projectDir, modelServer }) => {
  const file = join(projectDir, 'notes.txt')
  await writeFile(file, 'alpha\nbeta\n')
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: file } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_edit', name: 'Edit', input: { file_path: file, old_string: 'beta', new_string: 'BETA' } }] } },
    { reply: { content: [{ type: 'text', text: 'Left it alone.' }] } },
  ])
  await openByPath(app, projectDir)
  await prompt(app, 'edit it')
  await app.getByRole('region', { name: 'Approvals' }).getByRole('button', { name: 'Reject all' }).click()
  const chat = app.getByRole('region', { name: 'Chat' })
  await expect(chat.getByLabel('Assistant').last()).toContainText('Left it alone.')
  const card = chat.getByRole('article', { name: 'Tool Edit: Rejected' })
  await expect(card).toBeVisible()
  const badge = card.locator('.badge')
  await expect(badge).toHaveText('Rejected')
  const [badgeColour, danger] = await badge.evaluate((element) => {
    const view = element.ownerDocument.defaultView!
    const probe = element.ownerDocument.createElement('span')
    probe.style.color = 'var(--danger)'
    element.ownerDocument.body.append(probe)
    const colours = [view.getComputedStyle(element).color, view.getComputedStyle(probe).color]
    probe.remove()
    return colours
  })
  expect(badgeColour).not.toBe(danger)
})
