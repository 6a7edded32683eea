import { z } from 'zod'
import { defineTool } from './define-tool'
import description from './grep.prompt'

const input = z.strictObject({
  pattern: z.string().describe('The regular expression pattern to search for in file contents'),
  path: z.string().optional().describe('File or directory to search in (rg PATH). Defaults to current working directory.'),
  glob: z.string().optional().describe('Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob'),
  type: z.string().optional().describe('File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than include for standard file types.'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe('Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), "files_with_matches" shows file paths (supports head_limit), "count" shows match counts (supports head_limit). Defaults to "files_with_matches".'),
  '-i': z.boolean().optional().describe('Case insensitive search (rg -i)'),
  '-n': z.boolean().optional().describe('Show line numbers in output (rg -n). Requires output_mode: "content", ignored otherwise. Defaults to true.'),
  '-A': z.number().int().nonnegative().optional().describe('Number of lines to show after each match (rg -A). Requires output_mode: "content", ignored otherwise.'),
  '-B': z.number().int().nonnegative().optional().describe('Number of lines to show before each match (rg -B). Requires output_mode: "content", ignored otherwise.'),
  '-C': z.number().int().nonnegative().optional().describe('Number of lines to show before and after each match (rg -C). Requires output_mode: "content", ignored otherwise.'),
  multiline: z.boolean().optional().describe('Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false.'),
  head_limit: z.number().int().positive().optional().describe('Limit output to first N lines/entries, equivalent to "| head -N". Works across all output modes.'),
})
/** Grep's input as parsed. */
export type GrepInput = z.output<typeof input>

/** Grep: the bundled ripgrep (see base/ripgrep.ts), .gitignore respected, three output modes. */
export const grepTool = defineTool({
  name: 'Grep',
  label: 'Search',
  description,
  input,
  isReadOnly: () => true,
  isDestructive: () => false,
  isConcurrencySafe: () => true,
  summarize: (args) => `Grep "${args.pattern}"${args.path ? ` in ${args.path}` : ''}`,
  // The body (ripgrep, the output's formats) loads at the first search: a run that never greps
  // compiles none of it (docs/design/startup.md).
  execute: async (args, ctx) => (await import('./grep-run')).executeGrep(args, ctx),
})
