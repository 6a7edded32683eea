import type { ExtensionsOverview } from '../../../../shared/ipc/contract'
import { problemsOf } from './describe'
import { Problems } from './Problems'

/** Skills (`SKILL.md` folders): where each comes from, what its frontmatter says, and files that could not be read. */
export function SkillsSection({ overview }: { overview: ExtensionsOverview }) {
  return (
    <>
      <Problems problems={problemsOf(overview.problems, 'skills')} />
      {overview.skills.length === 0 ? (
        <p className="extensions__empty">
          No skills. A skill is a folder with a <code>SKILL.md</code> in <code>.claude/skills/</code> or <code>~/.claude/skills/</code>.
        </p>
      ) : (
        <ul className="extensions__list" aria-label="Skills">
          {overview.skills.map((skill) => (
            <li key={skill.name} className="extensions__item" aria-label={`Skill ${skill.name}`}>
              <div className="extensions__line">
                <strong>{skill.displayName}</strong>
                <span className="extensions__meta">
                  {skill.source === 'user' ? 'yours' : 'project'}
                  {skill.userOnly ? ' · only you can run it' : skill.modelOnly ? ' · only the agent loads it' : ''}
                  {skill.fork ? ' · runs as a subagent' : ''}
                  {skill.model ? ` · model ${skill.model}` : ''}
                </span>
              </div>
              <p className="extensions__description">{skill.description}</p>
              {skill.allowedTools.length > 0 && (
                <p className="extensions__meta">
                  Allowed while it runs: <code>{skill.allowedTools.join(' ')}</code>
                </p>
              )}
              <p className="extensions__file">{skill.file}</p>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
