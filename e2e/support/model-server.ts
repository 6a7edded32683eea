import { resolve } from 'node:path'
import { startChild, type Child } from './child'

/** A step of the scripted model server, in its JSON form (see test/model-server/types.ts). */
export type ScenarioStep = Record<string, unknown>

/** The scripted Messages API server, as a real child process. */
export interface ModelServer {
  readonly url: string
  /** Replaces the script for the next requests. */
  setScenario(steps: ScenarioStep[]): Promise<void>
  /** What the server has seen, and any scenario mismatches. */
  recorded(): Promise<{ requests: Array<{ body: Record<string, unknown> }>; failures: Array<{ requestIndex: number; message: string }> }>
  stop(): Promise<void>
}

/** Starts `test/model-server/cli.ts` with an empty script on a free port. */
export async function startModelServer(root: string): Promise<ModelServer> {
  const child: Child = await startChild({
    name: 'the scripted model server',
    command: process.execPath,
    args: ['--import', 'tsx', resolve(root, 'test/model-server/cli.ts'), '--port', '0'],
    cwd: root,
    env: process.env,
    ready: /^listening on (http:\/\/\S+)/,
  })
  const url = (child.announced[1] ?? '').replace(/\/$/, '')
  return {
    url,
    async setScenario(steps) {
      const response = await fetch(`${url}/_scripted/scenario`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ steps }),
      })
      if (!response.ok) throw new Error(`the model server refused the scenario: ${response.status} ${await response.text()}`)
    },
    async recorded() {
      const response = await fetch(`${url}/_scripted/requests`)
      return (await response.json()) as Awaited<ReturnType<ModelServer['recorded']>>
    },
    stop: () => child.stop(),
  }
}
