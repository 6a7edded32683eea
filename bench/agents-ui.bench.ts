/**
 * The agent tree in the browser (issue 15's "8 subagents streaming at once with a 200-node tree:
 * frame p95 ≤ 17 ms in Chromium, no long task over 50 ms"): headless Chromium through `sous serve`
 * and the scripted model server. A first prompt fills the tree — task-list items, background
 * commands, finished agents, and agents nested under agents — then a second has the main agent
 * start 8 workers at once, each streaming text and running tools for about 10 s, with the Agents
 * panel open. Measured in the page over that second prompt: frame times (rAF deltas), long tasks,
 * and the renderer main thread's CPU time. Needs a build (`npm run bench` builds first). Prints
 * figures; asserts nothing. Frame figures swing with machine load: run it alone.
 * `SOUS_BENCH_PROFILE=<file.cpuprofile>` also writes the renderer's CPU profile of the run.
 */
import type { Page } from '@playwright/test'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Message } from '../src/main/services/model/types'
import { startModelServer, type RecordedRequest, type ReplyBlock, type Step } from '../test/model-server'
import { mainThread, ms, quantile, startWatching, stopWatching } from './frames'
import { BENCH_VIEWPORT, launchChromium, openProject, startServe } from './serve'

const WORKERS = 8
const TASKS = 80
const SHELLS = 6
const FINISHED = 50
const LEADS = 10
const EXPLORES_PER_LEAD = 4
/** Rounds of streamed text plus one tool call each, then the final text. */
const WORKER_ROUNDS = 5
const FILES = 10

// Each conversation is told apart by a marker in the user text that started it (a prompt, or a
// subagent's task); tool results never hold one.
const SETUP = 'SETUP-TREE'
const STREAM = 'STREAM-EIGHT'
const WORKER = 'WORKER:'
const LEAD = 'LEAD:'
const FINISH = 'FINISH:'

const text = (value: string): ReplyBlock => ({ type: 'text', text: value })
const call = (name: string, input: unknown): ReplyBlock => ({ type: 'tool_use', name, input })
const agentCall = (description: string, prompt: string, subagentType = 'general-purpose'): ReplyBlock => call('Agent', { description, prompt, subagent_type: subagentType })

/** About 300 characters of a worker's running commentary. */
function commentary(round: number): string {
  return `Step ${round}: reading the module and noting how its exports are used by the callers, ` + 'checking each branch of the parser against the tests, '.repeat(4)
}

/** The replies of each conversation, by its marker; the n-th assistant turn gets the n-th. */
function scripts(project: string): Record<string, Array<Exclude<Step, (request: RecordedRequest) => unknown>>> {
  const file = (index: number) => join(project, 'src', `module-${index % FILES}.ts`)
  const tool = (round: number): ReplyBlock =>
    round === 0
      ? call('Bash', { command: 'sleep 600', description: 'Keep a watcher running', run_in_background: true })
      : round % 3 === 1
        ? call('Read', { file_path: file(round) })
        : round % 3 === 2
          ? call('Grep', { pattern: 'export', path: join(project, 'src') })
          : call('Glob', { pattern: 'src/**/*.ts', path: project })
  const stream = { chunkSize: 4, delayMs: 30 }
  return {
    [SETUP]: [
      {
        reply: {
          content: [
            ...Array.from({ length: TASKS }, (_, index) => call('TaskCreate', { subject: `Check part ${index + 1} of the parser`, description: `Part ${index + 1}`, activeForm: `Checking part ${index + 1}` })),
            ...Array.from({ length: SHELLS }, (_, index) => call('Bash', { command: `sleep ${600 + index}`, description: `Watcher ${index + 1}`, run_in_background: true })),
          ],
        },
      },
      {
        reply: {
          content: [
            ...Array.from({ length: FINISHED }, (_, index) => agentCall(`Survey area ${index + 1}`, `${FINISH} survey area ${index + 1}.`, 'Explore')),
            ...Array.from({ length: LEADS }, (_, index) => agentCall(`Lead review ${index + 1}`, `${LEAD} review part ${index + 1}.`, 'lead')),
          ],
        },
      },
      { reply: { content: [text('The tree is set up.')] } },
    ],
    [LEAD]: [{ reply: { content: Array.from({ length: EXPLORES_PER_LEAD }, (_, index) => agentCall(`Gather fact ${index + 1}`, `${FINISH} gather fact ${index + 1}.`, 'Explore')) } }, { reply: { content: [text('Reviewed: nothing wrong.')] } }],
    [FINISH]: [{ reply: { content: [text('Finished: nothing to report.')] } }],
    [STREAM]: [{ reply: { content: Array.from({ length: WORKERS }, (_, index) => agentCall(`Worker ${index + 1}`, `${WORKER} work on part ${index + 1}.`)) } }, { reply: { content: [text('ALL-WORKERS-DONE')] } }],
    [WORKER]: [
      ...Array.from({ length: WORKER_ROUNDS }, (_, round) => ({ reply: { content: [text(commentary(round)), tool(round)] }, ...stream })),
      { reply: { content: [text(`${commentary(WORKER_ROUNDS)}Done with my part.`)] }, ...stream },
    ],
  }
}

/** One step for every request: the reply its conversation's script has for its turn. */
function route(byMarker: ReturnType<typeof scripts>): Step {
  const markers = Object.keys(byMarker)
  return (request) => {
    const messages = request.body['messages'] as Message[]
    // The conversation's anchor: the last user message holding a marker; its turn: the replies since.
    for (let index = messages.length - 1; index >= 0; index--) {
      const message = messages[index]!
      if (message.role !== 'user') continue
      const content = JSON.stringify(message.content)
      const marker = markers.find((candidate) => content.includes(candidate))
      if (marker === undefined) continue
      const turn = messages.slice(index).filter((later) => later.role === 'assistant').length
      return byMarker[marker]![turn] ?? { reply: { content: [text('Nothing more.')] } }
    }
    // Side requests (a title, memory) get a plain answer.
    return { reply: { content: [text('Noted.')] } }
  }
}

export default async function bench(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'sous-bench-agents-ui-'))
  const project = join(home, 'project')
  const userHome = join(home, 'user-home')
  await mkdir(join(project, 'src'), { recursive: true })
  await mkdir(join(userHome, '.claude', 'agents'), { recursive: true })
  for (let index = 0; index < FILES; index++) await writeFile(join(project, 'src', `module-${index}.ts`), `export const value${index} = ${index}\n`.repeat(40))
  // The user's own settings and agent (trusted without asking): background watchers may run, a lead
  // agent may start agents of its own, and memory's side requests stay out of the script.
  await writeFile(join(home, 'settings.json'), `${JSON.stringify({ permissions: { allow: ['Bash(sleep:*)'] }, sous: { autoMemory: false } })}\n`)
  await writeFile(join(userHome, '.claude', 'agents', 'lead.md'), '---\nname: lead\ndescription: Leads a review and sends Explore agents for facts\ntools: Read, Grep, Agent\n---\nYou lead a review.\n')
  const server = await startModelServer({ scenario: [route(scripts(project))], loop: true })
  const serve = await startServe({ sousHome: home, userHome, modelUrl: server.url })
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: BENCH_VIEWPORT })
    await openProject(page, serve.url, project)
    await prompt(page, `${SETUP}: set up the work.`, 'The tree is set up.')
    await page.waitForTimeout(2000)
    await streamingTree(page)
  } finally {
    await browser.close()
    // The host writes transcripts until it exits: remove its folder after.
    const exited = new Promise((resolve) => serve.child.once('exit', resolve))
    serve.child.kill('SIGTERM')
    await exited
    await server.close()
    await rm(home, { recursive: true, force: true })
  }
}

/** Sends a prompt and waits for the main agent's last reply to hold `until`. */
async function prompt(page: Page, value: string, until: string): Promise<void> {
  const chat = page.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill(value)
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await chat.getByRole('log', { name: 'Conversation' }).getByLabel('Assistant').last().getByText(until).waitFor({ timeout: 300_000 })
}

/** Rows in the tree (treeitems in the DOM). */
async function treeRows(page: Page): Promise<number> {
  return (await page.evaluate(`document.querySelectorAll('[role="tree"][aria-label="Agent tree"] [role="treeitem"]').length`)) as number
}

/**
 * Resolves once the main agent went from running back to idle, with the most tree rows seen
 * running at once (a check that the agents overlap). Polled inside the page on a timer: Playwright's
 * locators poll by role over the whole DOM, which would be most of what the bench measures.
 */
async function untilIdle(page: Page): Promise<number> {
  return (await page.evaluate(`new Promise((resolve) => {
    let running = false
    let most = 0
    const check = () => {
      const items = [...document.querySelectorAll('[role="tree"][aria-label="Agent tree"] [role="treeitem"]')]
      const label = (item) => item.getAttribute('aria-label') ?? ''
      most = Math.max(most, items.filter((item) => label(item).endsWith(' — Running')).length)
      const main = label(items.find((item) => item.getAttribute('data-node-id') === 'main') ?? document.body)
      if (main.endsWith(' — Running')) running = true
      if (running && main.endsWith(' — Idle')) resolve(most)
      else setTimeout(check, 250)
    }
    check()
  })`, undefined)) as number
}

async function streamingTree(page: Page): Promise<void> {
  await page.getByRole('tree', { name: 'Agent tree' }).waitFor()
  const before = await treeRows(page)
  // Found and filled before the watch: a locator's search by role is work of the bench's own.
  const input = await page.getByRole('region', { name: 'Chat' }).getByRole('textbox', { name: 'Message' }).elementHandle()
  if (!input) throw new Error('no message box')
  await input.fill(`${STREAM}: run the eight workers.`)
  await startWatching(page)
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  const cpuBefore = await mainThread(cdp)
  // SOUS_BENCH_PROFILE=<file.cpuprofile>: the renderer's CPU profile over the run, for DevTools.
  const profile = process.env.SOUS_BENCH_PROFILE
  if (profile) {
    await cdp.send('Profiler.enable')
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
    await cdp.send('Profiler.start')
  }
  const started = Date.now()
  await input.press('Enter')
  const most = await untilIdle(page)
  const seconds = (Date.now() - started) / 1000
  const cpuAfter = await mainThread(cdp)
  if (profile) await writeFile(profile, JSON.stringify((await cdp.send('Profiler.stop')).profile))
  await cdp.detach()
  const { frames, longTasks } = await stopWatching(page)
  const after = await treeRows(page)
  const p95 = quantile(frames, 0.95)
  const max = frames.length ? Math.max(...frames) : undefined
  const longest = longTasks.length ? Math.max(...longTasks.map((task) => task.duration)) : 0
  console.log(`tree in Chromium, ${WORKERS} agents streaming into a ${after}-node tree (${before} before; at most ${most} rows running at once), ${seconds.toFixed(1)} s:`)
  console.log(`  frames ${frames.length}, p95 ${ms(p95)}, max ${ms(max)}; target p95 ≤ 17 ms: ${p95 === undefined ? 'n/a' : `${(p95 / 17).toFixed(2)}× it`}`)
  console.log(`  long tasks ${longTasks.length}, longest ${ms(longest)}${longTasks.length ? ` (at ${longTasks.map((task) => `${(task.start / 1000).toFixed(1)}s`).join(', ')})` : ''}; target none over 50 ms: ${(longest / 50).toFixed(2)}× it`)
  const cpu = cpuAfter.thread - cpuBefore.thread
  console.log(`  renderer main thread: ${cpu.toFixed(2)} s CPU (${((100 * cpu) / seconds).toFixed(0)} % of the run), script ${(cpuAfter.script - cpuBefore.script).toFixed(2)} s, style and layout ${(cpuAfter.layout - cpuBefore.layout).toFixed(2)} s`)
}
