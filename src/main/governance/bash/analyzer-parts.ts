/**
 * Everything of the Bash analyzer that callers outside `bash/` use, in the one module the seam
 * (`analyzer.ts`) imports on first use: the syntax-tree walk, the command specs and the wrapper
 * tables are ~120 kB that a run which never judges a command (`sous -p hello`) need not compile.
 * Import this file only from `analyzer.ts` (`seam.test.ts` checks it).
 */
export { analyzeBashSync, isReadOnlyBash, MAX_COMMAND_LENGTH } from './analyze'
export { ACCEPT_EDITS_COMMANDS, denyCandidates, isReadOnlyCommand, SAFE_ENV_VARS, stripSafeWrappers, unwrapCommand } from './commands'
