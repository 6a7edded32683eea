import { parseArgs } from 'node:util'
import { loadScenarioFile } from './scenario-file'
import { startModelServer } from './server'

/**
 * Runs the scripted model server as its own process, for e2e tests and benchmarks:
 *   node --import tsx test/model-server/cli.ts --scenario file.json [--port N] [--loop] [--min-cache-tokens N]
 * The first line on stdout is `listening on <url>`. While it runs, `GET <url>/_scripted/requests`
 * returns the recorded requests and failures, and `POST <url>/_scripted/scenario` replaces the script.
 * SIGINT/SIGTERM close it; failures are printed to stderr on exit (exit code 1 if any).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scenario: { type: 'string' },
      port: { type: 'string', default: '0' },
      loop: { type: 'boolean', default: false },
      'min-cache-tokens': { type: 'string', default: '0' },
    },
  })
  const scenario = values.scenario ? await loadScenarioFile(values.scenario) : { steps: [], loop: false }
  const port = Number(values.port)
  const minCacheTokens = Number(values['min-cache-tokens'])
  if (!Number.isInteger(port) || port < 0 || !Number.isFinite(minCacheTokens)) throw new Error('--port and --min-cache-tokens must be numbers')
  const server = await startModelServer({ scenario: scenario.steps, loop: values.loop || scenario.loop, port, minCacheTokens })
  process.stdout.write(`listening on ${server.url}\n`)
  const stop = (): void => {
    void server.close().then(() => {
      for (const failure of server.failures) process.stderr.write(`scenario failure: request #${failure.requestIndex}: ${failure.message}\n`)
      process.exit(server.failures.length > 0 ? 1 : 0)
    })
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(2)
})
