import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { openByPath } from './support/app'

/**
 * A terminal under a flood of output (issue 30): nothing lost or reordered through the PTY's flow
 * control, the keyboard still reaching the shell, and xterm's DOM renderer building each row once a
 * frame (selection-redraws.ts) while a selection still draws and clears.
 */

async function shellPanel(app: Page, projectDir: string): Promise<Locator> {
  await openByPath(app, projectDir)
  const terminal = app.getByRole('region', { name: 'Terminal' })
  await expect(terminal.getByRole('status')).toHaveText('Running')
  const panel = terminal.getByRole('tabpanel')
  // The prompt is drawn: the shell reads what is typed from here on.
  await expect(panel.locator('.xterm-rows > div').filter({ hasText: /\S/ }).first()).toBeVisible()
  return panel
}

/** The rows on screen, trimmed. */
const rowTexts = async (panel: Locator) => (await panel.locator('.xterm-rows > div').allTextContents()).map((row) => row.trim())

test('a flood of output arrives whole and in order, and the keyboard reaches the shell while it streams', async ({ app, projectDir }) => {
  const panel = await shellPanel(app, projectDir)
  await panel.locator('.xterm').click()

  // ~2 MB: hundreds of batches, the PTY paused and resumed by flow control many times over.
  await app.keyboard.type('seq 1 300000; echo end-$((40+2))')
  await app.keyboard.press('Enter')
  const rows = panel.locator('.xterm-rows > div')
  await expect(rows.filter({ hasText: /^\s*end-42\s*$/ })).toHaveCount(1, { timeout: 30_000 })
  const screen = await rowTexts(panel)
  const end = screen.indexOf('end-42')
  const before = screen.slice(Math.max(0, end - 10), end)
  // The last lines before the marker are the flood's last ten, in order.
  expect(before).toEqual(Array.from({ length: 10 }, (_, index) => String(299_991 + index)))

  // Further back, the scrollback (10,000 lines) holds the flood's tail and nothing older.
  await app.keyboard.press('Control+Shift+F')
  const find = app.getByRole('searchbox', { name: 'Find in terminal' })
  const status = app.getByRole('search').getByRole('status')
  await find.fill('295123')
  await find.press('Enter')
  await expect(status).toHaveText('')
  await find.fill('280123')
  await find.press('Enter')
  await expect(status).toHaveText('No match')
  await find.press('Escape')

  // Ctrl+C and a command typed during an endless flood reach the shell (input is never held
  // back by output flow control).
  await panel.locator('.xterm').click()
  await app.keyboard.type('yes flooding')
  await app.keyboard.press('Enter')
  await expect(rows.filter({ hasText: /^\s*flooding\s*$/ }).first()).toBeVisible()
  await app.keyboard.press('Control+C')
  await app.keyboard.type('echo typed-$((6*7))')
  await app.keyboard.press('Enter')
  await expect(rows.filter({ hasText: /^\s*typed-42\s*$/ })).toHaveCount(1, { timeout: 30_000 })
})

test('while output streams each row is built once a frame, and a selection still draws and clears', async ({ app, projectDir }) => {
  const panel = await shellPanel(app, projectDir)
  // The click leaves xterm the empty selection a user's click into the terminal does.
  await panel.locator('.xterm').click()

  // Counts, per animation frame (document.timeline's time is one frame's), how often the first row
  // on screen was rebuilt; the MutationObserver hears every replaceChildren of it.
  await panel.locator('.xterm-rows').evaluate((rowsElement) => {
    // The e2e specs compile without the DOM's types: the page's globals, as far as this uses them.
    type Observer = new (listener: (records: Array<{ target: unknown; type: string }>) => void) => { observe(target: unknown, options: { childList: boolean }): void }
    const page = globalThis as unknown as { MutationObserver: Observer; document: { timeline: { currentTime: unknown } }; rowBuilds: Map<number, number> }
    const counts = new Map<number, number>()
    const first = rowsElement.firstElementChild
    new page.MutationObserver((records) => {
      const frame = Number(page.document.timeline.currentTime)
      const rebuilt = records.filter((record) => record.target === first && record.type === 'childList').length
      if (rebuilt) counts.set(frame, (counts.get(frame) ?? 0) + rebuilt)
    }).observe(first, { childList: true })
    page.rowBuilds = counts
  })
  await app.keyboard.type('seq 1 100000; echo done-$((40+2))')
  await app.keyboard.press('Enter')
  const rows = panel.locator('.xterm-rows > div')
  await expect(rows.filter({ hasText: /^\s*done-42\s*$/ })).toHaveCount(1, { timeout: 30_000 })
  const builds = await app.evaluate(() => [...(globalThis as unknown as { rowBuilds: Map<number, number> }).rowBuilds.values()])
  // Many frames drew the streaming output, and few built the row twice. xterm alone builds it twice
  // in every streaming frame (once for a selection redraw of an empty selection, once for the
  // frame's own render). Not "none": on a loaded machine a render from a task between two frames
  // (a resize, the viewport's sync) is counted in the frame before it.
  expect(builds.length).toBeGreaterThan(5)
  const twice = builds.filter((count) => count > 1).length
  expect(twice, `${twice} of ${builds.length} frames built the row more than once`).toBeLessThan(builds.length / 4)

  // A selection made with the mouse draws, and a click clears it.
  const box = (await panel.locator('.xterm-screen').boundingBox())!
  await app.mouse.move(box.x + 20, box.y + 20)
  await app.mouse.down()
  await app.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 })
  await app.mouse.up()
  const selection = panel.locator('.xterm-selection > div')
  await expect(selection.first()).toBeVisible()
  await app.mouse.click(box.x + 20, box.y + box.height - 20)
  await expect(selection).toHaveCount(0)
})
