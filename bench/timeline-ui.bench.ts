/**
 * The session timeline in the browser (issue 26's "the timeline's frame time while a session
 * streams: ≤ 17 ms p95, no long task over 50 ms, as the other views"): headless Chromium through
 * `sous serve` and the scripted model server. A first prompt fills the strip (a few hundred calls,
 * plus subagents that each get a lane); a second has the main agent start 4 workers at once, each
 * streaming text and running tools, with the strip on screen and following the newest mark.
 * Measured in the page over that prompt (sent once with the strip hidden, as a baseline of what
 * the rest of the window costs on the machine then, and once with it shown): frame times (rAF
 * deltas), long tasks, the renderer main thread's CPU; then the same over a replay of the whole
 * session played at 20×.
 * Needs a build (`npm run bench` builds first). Prints figures; asserts nothing. Frame figures
 * swing with machine load: run it alone. `SOUS_BENCH_PROFILE=<prefix>` also writes the renderer's CPU
 * profile of each part.
 */
import type { Page } from '@playwright/test'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Message } from '../src/main/services/model/types'
import { startModelServer, type RecordedRequest, type ReplyBlock, type Step } from '../test/model-server'
import { mainThread, ms, quantile, startWatching, stopWatching } from './frames'
import { BENCH_VIEWPORT, launchChromium, openProject, startServe } from './serve'

const WORKERS = 4
const FILL_CALLS = 240
const FILL_AGENTS = 6
const WORKER_ROUNDS = 6
const FILES = 10

const FILL = 'FILL-STRIP'
const STREAM = 'STREAM-WORKERS'
const WORKER = 'WORKER:'
const HELPER = 'HELPER:'

const text = (value: string): ReplyBlock => ({ type: 'text', text: value })
const call = (name: string, input: unknown): ReplyBlock => ({ type: 'tool_use', name, input })

function scripts(project: string): Record<string, Array<Exclude<Step, (request: RecordedRequest) => unknown>>> {
  const file = (index: number) => join(project, 'src', `module-${index % FILES}.ts`)
  const tool = (round: number): ReplyBlock => (round % 2 === 0 ? call('Read', { file_path: file(round) }) : call('Grep', { pattern: 'export', path: join(project, 'src') }))
  const stream = { chunkSize: 4, delayMs: 30 }
  const commentary = (round: number) => `Step ${round}: reading the module and noting how its exports are used, ` + 'checking each branch against the tests, '.repeat(4)
  return {
    [FILL]: [
      // Read-only calls in batches of 40 (they run together), then subagents that each read one file.
      ...Array.from({ length: FILL_CALLS / 40 }, (_, batch) => ({ reply: { content: Array.from({ length: 40 }, (_, index) => (index % 2 ? call('Glob', { pattern: `src/**/*${batch}${index}.ts`, path: project }) : call('Read', { file_path: file(index) }))) } })),
      { reply: { content: Array.from({ length: FILL_AGENTS }, (_, index) => call('Agent', { description: `Helper ${index + 1}`, prompt: `${HELPER} read module ${index}.`, subagent_type: 'Explore' })) } },
      { reply: { content: [text('The strip is filled.')] } },
    ],
    [HELPER]: [{ reply: { content: [call('Read', { file_path: file(0) })] } }, { reply: { content: [text('Read it.')] } }],
    [STREAM]: [{ reply: { content: Array.from({ length: WORKERS }, (_, index) => call('Agent', { description: `Worker ${index + 1}`, prompt: `${WORKER} work on part ${index + 1}.` })) } }, { reply: { content: [text('ALL-WORKERS-DONE')] } }],
    [WORKER]: [
      ...Array.from({ length: WORKER_ROUNDS }, (_, round) => ({ reply: { content: [text(commentary(round)), tool(round)] }, ...stream })),
      { reply: { content: [text(`${commentary(WORKER_ROUNDS)}Done with my part.`)] }, ...stream },
    ],
  }
}

/** One step for every request: the reply its conversation's script has for its turn (as agents-ui.bench.ts). */
function route(byMarker: ReturnType<typeof scripts>): Step {
  const markers = Object.keys(byMarker)
  return (request) => {
    const messages = request.body['messages'] as Message[]
    for (let index = messages.length - 1; index >= 0; index--) {
      const message = messages[index]!
      if (message.role !== 'user') continue
      const content = JSON.stringify(message.content)
      const marker = markers.find((candidate) => content.includes(candidate))
      if (marker === undefined) continue
      const turn = messages.slice(index).filter((later) => later.role === 'assistant').length
      return byMarker[marker]![turn] ?? { reply: { content: [text('Nothing more.')] } }
    }
    return { reply: { content: [text('Noted.')] } }
  }
}

export default async function bench(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'sous-bench-timeline-'))
  const project = join(home, 'project')
  const userHome = join(home, 'user-home')
  await mkdir(join(project, 'src'), { recursive: true })
  await mkdir(userHome, { recursive: true })
  for (let index = 0; index < FILES; index++) await writeFile(join(project, 'src', `module-${index}.ts`), `export const value${index} = ${index}\n`.repeat(40))
  await writeFile(join(home, 'settings.json'), `${JSON.stringify({ sous: { autoMemory: false } })}\n`)
  const server = await startModelServer({ scenario: [route(scripts(project))], loop: true })
  const serve = await startServe({ sousHome: home, userHome, modelUrl: server.url })
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: BENCH_VIEWPORT })
    await openProject(page, serve.url, project)
    await prompt(page, `${FILL}: fill the strip.`, 'The strip is filled.')
    await page.waitForTimeout(1500)
    const streaming = async () => {
      const input = await page.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' }).elementHandle()
      if (!input) throw new Error('no message box')
      await input.fill(`${STREAM}: run the workers.`)
      const replies = await repliesNow(page)
      return async () => {
        await input.press('Enter')
        await untilText(page, 'ALL-WORKERS-DONE', replies)
      }
    }
    // The same stream with the strip hidden first: what the rest of the window costs on this machine now.
    await togglePalette(page)
    await measured(page, 'streaming, strip hidden (baseline)', streaming)
    await togglePalette(page)
    await page.waitForTimeout(1500)
    await measured(page, 'streaming', streaming)
    await page.waitForTimeout(1500)
    await page.getByRole('toolbar', { name: 'Replay' }).getByRole('button', { name: 'Replay session' }).click()
    await page.getByRole('combobox', { name: 'Replay speed' }).selectOption('20')
    await measured(page, 'replay at 20×', async () => {
      const play = await page.getByRole('button', { name: 'Play', exact: true }).elementHandle()
      if (!play) throw new Error('no play button')
      return async () => {
        await play.click()
        await untilReplayEnd(page)
      }
    })
  } finally {
    await browser.close()
    const exited = new Promise((resolve) => serve.child.once('exit', resolve))
    serve.child.kill('SIGTERM')
    await exited
    await server.close()
    await rm(home, { recursive: true, force: true })
  }
}

async function prompt(page: Page, value: string, until: string): Promise<void> {
  const chat = page.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill(value)
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant').last().getByText(until).waitFor({ timeout: 300_000 })
}

/** Marks on the strip (counted in the page: a locator's search by role would be work of the bench's own). */
function marks(page: Page): Promise<number> {
  return page.evaluate(`document.querySelectorAll('[role="toolbar"][aria-label="Session timeline"] button').length`) as Promise<number>
}

function lanes(page: Page): Promise<number> {
  return page.evaluate(`document.querySelectorAll('[role="toolbar"][aria-label="Session timeline"] [role="group"]').length`) as Promise<number>
}

/** The palette's "Show or hide the session timeline". */
async function togglePalette(page: Page): Promise<void> {
  await page.keyboard.press('Control+Shift+P')
  const command = page.getByRole('dialog', { name: 'Command palette' }).getByRole('combobox', { name: 'Command' })
  await command.fill('Show or hide the session timeline')
  await command.press('Enter')
}

function repliesNow(page: Page): Promise<number> {
  return page.evaluate(`document.querySelectorAll('[role="log"][aria-label="Conversation"] [aria-label="Assistant"]').length`) as Promise<number>
}

/** Polled in the page on a timer until a reply after the first `after` holds `value`. */
async function untilText(page: Page, value: string, after = 0): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    const check = () => {
      const replies = document.querySelectorAll('[role="log"][aria-label="Conversation"] [aria-label="Assistant"]')
      if (replies.length > ${after} && replies[replies.length - 1]?.textContent?.includes(${JSON.stringify(value)})) resolve(undefined)
      else setTimeout(check, 250)
    }
    check()
  })`)
}

async function untilReplayEnd(page: Page): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    const check = () => {
      const status = document.querySelector('[role="toolbar"][aria-label="Replay"] [role="status"]')?.textContent ?? ''
      const found = /^Step (\\d+) of (\\d+)$/.exec(status)
      if (found && found[1] === found[2]) resolve(undefined)
      else setTimeout(check, 250)
    }
    check()
  })`)
}

/** Runs what `prepare` returns while watching frames, long tasks and CPU, and prints them. */
async function measured(page: Page, name: string, prepare: () => Promise<() => Promise<void>>): Promise<void> {
  const run = await prepare()
  const before = await marks(page)
  await startWatching(page)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  const cpuBefore = await mainThread(cdp)
  // SOUS_BENCH_PROFILE=<prefix>: the renderer's CPU profile of each part, <prefix>-<part>.cpuprofile, for DevTools.
  const profile = process.env.SOUS_BENCH_PROFILE
  if (profile) {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
    await cdp.send('Profiler.start')
  }
  const started = Date.now()
  await run()
  const seconds = (Date.now() - started) / 1000
  const cpuAfter = await mainThread(cdp)
  if (profile) await writeFile(`${profile}-${name.replace(/\W+/g, '-')}.cpuprofile`, JSON.stringify((await cdp.send('Profiler.stop')).profile))
  await cdp.detach()
  const { frames, longTasks } = await stopWatching(page)
  const p95 = quantile(frames, 0.95)
  const longest = longTasks.length ? Math.max(...longTasks.map((task) => task.duration)) : 0
  console.log(`timeline in Chromium, ${name}: ${await marks(page)} marks on ${await lanes(page)} lanes (${before} before), ${seconds.toFixed(1)} s:`)
  console.log(`  frames ${frames.length}, p95 ${ms(p95)}, max ${ms(frames.length ? Math.max(...frames) : undefined)}; target p95 ≤ 17 ms: ${p95 === undefined ? 'n/a' : `${(p95 / 17).toFixed(2)}× it`}`)
  console.log(`  long tasks ${longTasks.length}, longest ${ms(longest)}; target none over 50 ms: ${(longest / 50).toFixed(2)}× it`)
  const cpu = cpuAfter.thread - cpuBefore.thread
  console.log(`  renderer main thread: ${cpu.toFixed(2)} s CPU (${((100 * cpu) / seconds).toFixed(0)} % of the run), script ${(cpuAfter.script - cpuBefore.script).toFixed(2)} s, style and layout ${(cpuAfter.layout - cpuBefore.layout).toFixed(2)} s`)
}
