/**
 * Dialogs' first open: settings, extensions and the context view, opened the way a user does
 * (their shortcut, or the command palette's Enter), in headless Chromium through `sous serve`, a
 * project open and start-up settled. From the key to the dialog on screen (its chunk in, rendered,
 * the next frame), for the first open of the session and the median of the later ones. The memory
 * browser has its own figures (`memory.bench.ts`: its first open lists 1,000 memories).
 * Needs a build (`npm run bench` builds first). Prints figures and ratios; asserts nothing.
 */
import type { Page } from '@playwright/test'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BENCH_VIEWPORT, launchChromium, openProject, startServe } from './serve'
import { startModelServer } from '../test/model-server'

const OPENS = 5
/** A dialog a user opens from the shell and comes back to. */
const DIALOGS = [
  { name: 'Settings', how: 'Ctrl+,', key: { key: ',', code: 'Comma', ctrlKey: true } },
  { name: 'Extensions', how: 'Alt+Shift+X', key: { key: 'X', code: 'KeyX', altKey: true, shiftKey: true } },
  { name: 'Context', how: 'palette', palette: 'Open the context view' },
] as const
/** What a dialog first open may take, as the memory browser's 1,000 listed (issue 14). */
const TARGET_MS = 200

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const ms = (value: number) => `${value.toFixed(1)} ms`

export default async function bench(): Promise<void> {
  const server = await startModelServer({ scenario: [] })
  const base = await mkdtemp(join(tmpdir(), 'sous-bench-dialogs-'))
  const project = join(base, 'project')
  await mkdir(join(base, 'user-home'), { recursive: true })
  await mkdir(project, { recursive: true })
  await writeFile(join(project, 'README.md'), '# A project\n')
  const serve = await startServe({ sousHome: join(base, 'sous'), userHome: join(base, 'user-home'), modelUrl: server.url })
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: BENCH_VIEWPORT })
    await openProject(page, serve.url, project)
    await page.waitForTimeout(3000) // start-up settles (idle warm-ups)
    console.log(`dialogs' first open, from the key to the dialog on screen (headless Chromium, sous serve; project open, start-up idle)`)
    for (const dialog of DIALOGS) {
      const opens: number[] = []
      for (let round = 0; round < OPENS; round++) {
        opens.push(await open(page, dialog))
        await page.keyboard.press('Escape')
        await page.getByRole('dialog', { name: dialog.name }).waitFor({ state: 'detached' })
      }
      const first = opens[0]!
      const later = median(opens.slice(1))
      console.log(`  ${dialog.name} (${dialog.how}): first open ${ms(first)} → ×${(first / TARGET_MS).toFixed(2)} of ${TARGET_MS} ms; later opens median ${ms(later)} of ${OPENS - 1}; first / later ×${(first / later).toFixed(1)}`)
    }
  } finally {
    await browser.close()
    serve.child.kill('SIGTERM')
    await server.close()
    await rm(base, { recursive: true, force: true })
  }
}

/** Opens `dialog`; ms from the key that opens it to the frame after it is in the page (measured in the page). */
async function open(page: Page, dialog: (typeof DIALOGS)[number]): Promise<number> {
  let trigger: string
  if ('palette' in dialog) {
    await page.keyboard.press('Control+Shift+P')
    const input = page.getByRole('combobox', { name: 'Command' })
    await input.fill(dialog.palette)
    await page.getByRole('option', { name: dialog.palette }).waitFor()
    trigger = `document.querySelector('[role="combobox"][aria-label="Command"]').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', code: 'Enter', bubbles: true }))`
  } else {
    trigger = `window.dispatchEvent(new KeyboardEvent('keydown', { ...${JSON.stringify(dialog.key)}, bubbles: true }))`
  }
  // Script as text: tsx would wrap functions with helpers the page does not have.
  return (await page.evaluate(`new Promise((resolve) => {
    const started = performance.now()
    const check = () => {
      if (document.querySelector('[role="dialog"][aria-label=${JSON.stringify(dialog.name)}]')) requestAnimationFrame(() => resolve(performance.now() - started))
      else requestAnimationFrame(check)
    }
    ${trigger}
    check()
  })`)) as number
}
