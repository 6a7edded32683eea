import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * The layout by keyboard and geometry (no screenshots): splitters move panes and are remembered
 * across a reload, a position saved on a larger screen is clamped, sidebar sections fold and
 * maximize, focus mode shows the chat alone, an expanded review takes the terminals' room, and the
 * diff's inline/wrap choice holds for the next diff.
 */

const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
]

const width = async (page: Page, name: string) => (await page.getByRole('region', { name }).boundingBox())?.width ?? 0
const sidebarWidth = async (page: Page) => (await page.getByRole('complementary', { name: 'Project' }).boundingBox())?.width ?? 0

for (const size of SIZES) {
  test(`at ${size.width}×${size.height} the splitters move the panes by keyboard and are remembered`, async ({ app, projectDir }) => {
    await app.setViewportSize(size)
    await openByPath(app, projectDir)
    const sidebar = app.getByRole('separator', { name: 'Resize the sidebar' })
    const before = await sidebarWidth(app)
    await sidebar.focus()
    await sidebar.press('ArrowRight')
    await sidebar.press('Shift+ArrowRight')
    await expect.poll(() => sidebarWidth(app)).toBeCloseTo(before + 16 * 5, 0)
    await expect(sidebar).toHaveAttribute('aria-valuenow', String(Math.round(before + 80)))
    await expect(sidebar).toBeFocused()

    const chatSplit = app.getByRole('separator', { name: 'Resize the chat and the terminals' })
    const chatBefore = await width(app, 'Chat')
    await chatSplit.focus()
    for (let i = 0; i < 5; i++) await chatSplit.press('ArrowLeft')
    await expect.poll(() => width(app, 'Chat')).toBeLessThan(chatBefore - 40)
    const chatAfter = await width(app, 'Chat')
    // End: as wide as the chat may get; the terminals keep their minimum.
    await chatSplit.press('End')
    await expect.poll(async () => (await width(app, 'Terminal')) >= 319).toBe(true)
    await chatSplit.press('ArrowLeft')
    const remembered = await chatSplit.getAttribute('aria-valuenow')

    await app.reload()
    await openByPath(app, projectDir)
    await expect(app.getByRole('separator', { name: 'Resize the sidebar' })).toHaveAttribute('aria-valuenow', String(Math.round(before + 80)))
    await expect(app.getByRole('separator', { name: 'Resize the chat and the terminals' })).toHaveAttribute('aria-valuenow', remembered!)
    expect(chatAfter).toBeGreaterThan(0)
  })
}

test('a layout saved on a larger screen is clamped to a smaller one', async ({ app, projectDir }) => {
  await app.setViewportSize({ width: 1920, height: 1080 })
  await openByPath(app, projectDir)
  await app.evaluate(() => (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem('sous.layout.v1', JSON.stringify({ sidebar: 520, chat: 95 })))
  await app.setViewportSize({ width: 1280, height: 720 })
  await app.reload()
  await openByPath(app, projectDir)
  // Every pane inside the window, the terminals at least their minimum width.
  for (const name of ['Chat', 'Terminal']) {
    const box = await app.getByRole('region', { name }).boundingBox()
    expect(box!.x + box!.width, `${name} right edge`).toBeLessThanOrEqual(1280)
    expect(box!.width, `${name} width`).toBeGreaterThanOrEqual(300)
  }
})

test('sidebar sections fold to one line, take the whole sidebar, and the splitter between them resizes by keyboard', async ({ app, projectDir }) => {
  await app.setViewportSize({ width: 1280, height: 720 })
  await openByPath(app, projectDir)
  const section = (id: string) => app.locator(`.sidebar-section[data-section="${id}"]`)
  const height = async (id: string) => (await section(id).boundingBox())?.height ?? 0
  // No conversation yet: Tasks and Agents say so on one line each.
  for (const id of ['tasks', 'agents']) {
    expect(await height(id), `the ${id} section`).toBeLessThan(72)
    const empty = await section(id).locator(':is(.tasks__empty, .agents__empty)').boundingBox()
    expect(empty!.height, `the ${id} empty line`).toBeLessThanOrEqual(27)
  }

  const fold = app.getByRole('button', { name: 'Collapse the Sessions section' })
  await fold.focus()
  await fold.press('Enter')
  await expect(app.getByRole('button', { name: 'Expand the Sessions section' })).toHaveAttribute('aria-expanded', 'false')
  expect(await height('sessions')).toBeLessThan(40)
  await expect(app.getByRole('button', { name: 'Expand the Sessions section' })).toBeFocused()
  // The Files section took the room.
  const filesTall = await height('files')
  expect(filesTall).toBeGreaterThan(300)
  await app.getByRole('button', { name: 'Expand the Sessions section' }).press('Enter')

  // The splitter between Sessions and Tasks moves room by keyboard… Tasks is empty, so it is between
  // Sessions and the next open section.
  const split = app.getByRole('separator', { name: /^Resize the Sessions and / })
  const sessionsBefore = await height('sessions')
  await split.focus()
  await split.press('Shift+ArrowDown')
  await expect.poll(() => height('sessions')).toBeGreaterThan(sessionsBefore + 20)

  await app.getByRole('button', { name: 'Give the Agents section the whole sidebar' }).click()
  await expect(section('sessions')).toBeHidden()
  await expect(section('files')).toBeHidden()
  await expect(app.getByRole('button', { name: 'Give the Agents section the whole sidebar' })).toHaveAttribute('aria-pressed', 'true')
  const aside = await app.getByRole('complementary', { name: 'Project' }).boundingBox()
  expect(await height('agents')).toBeGreaterThan(aside!.height - 70)
  await app.reload()
  await openByPath(app, projectDir)
  await expect(app.getByRole('button', { name: 'Give the Agents section the whole sidebar' })).toHaveAttribute('aria-pressed', 'true')
  await app.getByRole('button', { name: 'Give the Agents section the whole sidebar' }).click()
  await expect(section('sessions')).toBeVisible()
})

test('focus mode shows the chat alone and gives everything back; nothing takes the focus', async ({ app, projectDir }) => {
  await app.setViewportSize({ width: 1440, height: 900 })
  await openByPath(app, projectDir)
  const message = app.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' })
  await message.focus()
  await app.keyboard.press('Control+Shift+P')
  await app.getByRole('combobox', { name: 'Command' }).fill('focus mode')
  await app.keyboard.press('Enter')
  await expect(app.getByRole('complementary', { name: 'Project' })).toBeHidden()
  await expect(app.getByRole('region', { name: 'Terminal' })).toBeHidden()
  expect(await width(app, 'Chat')).toBeGreaterThan(1300)
  await message.focus()
  await app.keyboard.press('Alt+Shift+Z')
  await expect(app.getByRole('region', { name: 'Terminal' })).toBeVisible()
  await expect(app.getByRole('complementary', { name: 'Project' })).toBeVisible()
  expect(await width(app, 'Chat')).toBeLessThan(800)
  await expect(message).toBeFocused()
})

test('an expanded review takes the terminals’ room; inline and wrap hold for the next diff and for Changes', async ({ app, projectDir, modelServer }) => {
  await app.setViewportSize({ width: 1280, height: 720 })
  const file = join(projectDir, 'wide.txt')
  const long = `${'word '.repeat(60)}END`
  await writeFile(file, `short\n${long}\n`)
  await modelServer.setScenario([
    { reply: { content: [{ type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: file } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_edit', name: 'Edit', input: { file_path: file, old_string: 'END', new_string: 'FINISH' } }] } },
    { reply: { content: [{ type: 'tool_use', id: 'toolu_edit2', name: 'Edit', input: { file_path: file, old_string: 'short', new_string: 'SHORT' } }] } },
    { reply: { content: [{ type: 'text', text: 'Both edits made.' }] } },
  ])
  await openByPath(app, projectDir)
  const chat = app.getByRole('region', { name: 'Chat' })
  const message = chat.getByRole('textbox', { name: 'Message' })
  await message.fill('edit wide.txt')
  await message.press('Enter')
  const panel = app.getByRole('region', { name: 'Approvals' })
  await expect(panel.locator('.editor.modified .view-lines')).toContainText('word')
  const options = panel.getByRole('group', { name: 'Approval diff options' })
  // Side by side at first.
  const diffEditor = panel.locator('.monaco-diff-editor')
  await expect(diffEditor).toHaveClass(/side-by-side/)

  await panel.getByRole('button', { name: 'Expand' }).click()
  await expect(app.getByRole('region', { name: 'Terminal' })).toBeHidden()
  expect(await width(app, 'Chat')).toBeGreaterThan(900)

  await options.getByRole('button', { name: 'Inline' }).click()
  await options.getByRole('button', { name: 'Wrap' }).click()
  await expect(diffEditor).not.toHaveClass(/side-by-side/)
  // Wrapped: the end of the long line is on screen without scrolling sideways.
  await expect(panel.locator('.editor.modified')).toContainText('FINISH')
  const editor = await panel.locator('.editor.modified').boundingBox()
  const end = await panel.locator('.editor.modified .view-line', { hasText: 'FINISH' }).last().boundingBox()
  expect(end!.x + end!.width).toBeLessThanOrEqual(editor!.x + editor!.width + 1)

  await panel.getByRole('button', { name: 'Accept all' }).click()
  // The next diff comes up inline and wrapped: the choice is the window's, not the card's.
  await expect(panel.locator('.editor.modified')).toContainText('SHORT')
  await expect(panel.getByRole('group', { name: 'Approval diff options' }).getByRole('button', { name: 'Inline' })).toHaveAttribute('aria-pressed', 'true')
  await expect(diffEditor).not.toHaveClass(/side-by-side/)
  await panel.getByRole('button', { name: 'Accept all' }).click()
  await expect(chat.getByLabel('Assistant').last()).toContainText('Both edits made.')
  // The review closed: the terminals are back.
  await expect(app.getByRole('region', { name: 'Terminal' })).toBeVisible()

  await app.getByRole('button', { name: /^Changes/ }).click()
  const diff = app.getByRole('dialog', { name: 'Changes in this session' })
  const changes = diff.getByRole('group', { name: 'Changes diff options' })
  await expect(changes.getByRole('button', { name: 'Inline' })).toHaveAttribute('aria-pressed', 'true')
  await expect(diff.getByRole('document', { name: 'Combined diff' })).toContainText('+SHORT')
  await changes.getByRole('button', { name: 'Inline' }).click()
  const table = diff.getByRole('table', { name: /wide\.txt side by side/ })
  await expect(table.getByRole('row').filter({ hasText: '-short' })).toContainText('+SHORT')
  const line = diff.locator('.diff__line--add', { hasText: 'FINISH' }).first()
  await expect(line).toHaveCSS('white-space', 'pre-wrap')
})
