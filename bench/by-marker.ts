import type { Page } from '@playwright/test'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Message } from '../src/main/services/model/types'
import { startModelServer, type RecordedRequest, type ReplyBlock, type Step } from '../test/model-server'
import { BENCH_VIEWPORT, launchChromium, openProject, startServe } from './serve'

/** The replies of each scripted conversation, by the marker in the user text that started it; the n-th assistant turn gets the n-th. */
export type ScriptsByMarker = Record<string, Array<Exclude<Step, (request: RecordedRequest) => unknown>>>

/**
 * One step for every request of a browser bench with many conversations at once (the main
 * agent's, each subagent's): the reply its conversation's script has for its turn. Each
 * conversation is told apart by a marker in the user text that started it (a prompt, or a
 * subagent's task); tool results never hold one. Side requests (a title, memory) get a plain answer.
 */
export function routeByMarker(byMarker: ScriptsByMarker): Step {
  const markers = Object.keys(byMarker)
  const plain = (value: string) => ({ reply: { content: [{ type: 'text' as const, text: value }] } })
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
      return byMarker[marker]![turn] ?? plain('Nothing more.')
    }
    return plain('Noted.')
  }
}

/** Sends a prompt and waits for the main agent's last reply to hold `until`. */
export async function promptAndWait(page: Page, value: string, until: string): Promise<void> {
  const chat = page.getByRole('region', { name: 'Chat' })
  await chat.getByRole('textbox', { name: 'Message' }).fill(value)
  await chat.getByRole('textbox', { name: 'Message' }).press('Enter')
  await chat
    .getByRole('log', { name: 'Conversation' })
    .getByLabel('Assistant')
    .last()
    .getByText(until)
    .waitFor({ timeout: 300_000 })
}

/** A text block of a scripted reply. */
export const textBlock = (value: string): ReplyBlock => ({ type: 'text', text: value })
/** A tool call of a scripted reply. */
export const toolCall = (name: string, input: unknown): ReplyBlock => ({ type: 'tool_use', name, input })

/** Folders of one browser bench: `$SOUS_HOME`, the project (with `src/module-<n>.ts` files) and the user's home. */
export interface BenchFolders {
  home: string
  project: string
  userHome: string
}

/**
 * Runs `body` in headless Chromium on a project opened in a built `sous serve`, whose model is the
 * scripted server answering by marker: makes the folders (`files` small modules under `src/`),
 * lets `prepare` write settings and agents, and removes everything after (the host first: it
 * writes transcripts until it exits).
 */
export async function withScriptedBrowser(
  options: {
    prefix: string
    files: number
    prepare(folders: BenchFolders): Promise<void>
    scripts(project: string): ScriptsByMarker
    /** Another build's `out/main/cli.js` to serve (a baseline). */
    cli?: string
  },
  body: (page: Page) => Promise<void>,
): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), options.prefix))
  const folders = { home, project: join(home, 'project'), userHome: join(home, 'user-home') }
  await mkdir(join(folders.project, 'src'), { recursive: true })
  await mkdir(folders.userHome, { recursive: true })
  for (let index = 0; index < options.files; index++)
    await writeFile(
      join(folders.project, 'src', `module-${index}.ts`),
      `export const value${index} = ${index}\n`.repeat(40),
    )
  await options.prepare(folders)
  const server = await startModelServer({
    scenario: [routeByMarker(options.scripts(folders.project))],
    loop: true,
  })
  const serve = await startServe({ sousHome: home, userHome: folders.userHome, modelUrl: server.url, ...(options.cli && { cli: options.cli }) })
  const browser = await launchChromium()
  try {
    const page = await browser.newPage({ viewport: BENCH_VIEWPORT })
    await openProject(page, serve.url, folders.project)
    await body(page)
  } finally {
    await browser.close()
    const exited = new Promise((resolve) => serve.child.once('exit', resolve))
    serve.child.kill('SIGTERM')
    await exited
    await server.close()
    await rm(home, { recursive: true, force: true })
  }
}
