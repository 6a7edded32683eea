import { bash, corpusClass, tool } from './cases'

/**
 * Tools that change only Sous's own state (the task list, plan mode, stopping a background job)
 * carry the `isBookkeeping` trait: they pass in every mode without a prompt. The trait never lifts
 * a command or a file edit past the rules (the corpus test gives Bash and Edit the trait too), and
 * a tool without it gets nothing.
 */
export const BOOKKEEPING = [
  corpusClass('bookkeeping tools: the trait, never the name, and never for a command or an edit', 'a tool that only keeps Sous\'s own books needs no prompt; the trait lifts nothing else', [
    tool('TaskCreate', { subject: 's', description: 'd' }, 'allow'),
    tool('TaskUpdate', { taskId: '1', status: 'deleted' }, 'allow'),
    tool('TaskCreate', { subject: 's', description: 'd' }, 'allow', undefined, 'plan'),
    tool('TaskUpdate', { taskId: '1', status: 'completed' }, 'allow', undefined, 'plan'),
    tool('TaskStop', { task_id: 'x' }, 'allow', undefined, 'plan'),
    tool('TaskUpdate', { taskId: '1' }, 'allow', undefined, 'dontAsk'),
    tool('SomeNewTool', { taskId: '1' }, 'ask', 'a tool without the trait is not bookkeeping, whatever its input looks like'),
    tool('SomeNewTool', { taskId: '1' }, 'deny', 'plan mode refuses a tool that is neither read-only nor bookkeeping', 'plan'),
    bash('npm install', 'ask', 'the Bash tool claiming the trait must still be judged as a command'),
    bash('npm run test', 'deny', 'plan mode refuses a command that is not read-only, trait or not', 'plan'),
    tool('Edit', { file_path: 'README.md' }, 'ask', 'the Edit tool claiming the trait must still be judged as an edit'),
    tool('Edit', { file_path: 'src/a.ts' }, 'deny', 'plan mode refuses an edit, trait or not', 'plan'),
  ]),
]
