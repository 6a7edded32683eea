import type { ExtensionsOverview } from '../../../../shared/ipc/contract'
import { problemsOf, scopeLabel } from './describe'
import { Problems } from './Problems'

const KIND = { command: 'command', skill: 'skill', 'mcp-prompt': 'MCP prompt' } as const

/** Every `/name` the user can type besides the built-ins: custom commands, skills, MCP prompts. */
export function CommandsSection({ overview }: { overview: ExtensionsOverview }) {
  const commands = overview.slashCommands
  return (
    <>
      <Problems problems={problemsOf(overview.problems, 'commands')} />
      {commands.length === 0 ? (
        <p className="extensions__empty">
          No custom commands. A command is a Markdown file in <code>.claude/commands/</code> or <code>~/.claude/commands/</code>; its name is the file's.
        </p>
      ) : (
        <ul className="extensions__list" aria-label="Custom commands">
          {commands.map((command) => (
            <li key={command.name} className="extensions__item" aria-label={`Command /${command.name}`}>
              <div className="extensions__line">
                <code>/{command.name}</code>
                {command.argumentHint && <span className="extensions__hint">{command.argumentHint}</span>}
                <span className="extensions__meta">
                  {KIND[command.kind]} · {scopeLabel(command.source)}
                </span>
              </div>
              {command.description && <p className="extensions__description">{command.description}</p>}
              {command.file && <p className="extensions__file">{command.file}</p>}
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
