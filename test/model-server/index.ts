/** The scripted model server for tests and benchmarks (see README.md in this folder). */
export { startModelServer, type ModelServer } from './server'
export { PromptCacheSimulator, estimateTokens } from './cache-sim'
export { parseScenario, loadScenarioFile, type JsonScenario } from './scenario-file'
export * from './builders'
export type * from './types'
