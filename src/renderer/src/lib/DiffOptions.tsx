import './diff-options.css'

/** How a diff is drawn: one column (inline) or two (side by side), and whether long lines wrap. */
export interface DiffStyle {
  inline: boolean
  wrap: boolean
}

/**
 * The two toggles every diff carries (approval, *Changes*, the rewind preview): inline or side by
 * side, and word wrap. Controlled: the window's layout keeps the choice (`state/layout.ts`), so
 * one choice holds for every diff and survives a reload. `label` names the group uniquely.
 */
export function DiffOptions({ label, value, onChange }: { label: string; value: DiffStyle; onChange(change: Partial<DiffStyle>): void }) {
  return (
    <span className="diff-options" role="group" aria-label={label}>
      <button type="button" className="button button--small button--quiet" aria-pressed={value.inline} onClick={() => onChange({ inline: !value.inline })} title="One column: removed lines above added ones">
        Inline
      </button>
      <button type="button" className="button button--small button--quiet" aria-pressed={value.wrap} onClick={() => onChange({ wrap: !value.wrap })} title="Wrap long lines instead of scrolling sideways">
        Wrap
      </button>
    </span>
  )
}
