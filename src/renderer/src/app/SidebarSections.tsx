import { Fragment, useRef, type CSSProperties } from 'react'
import { LazyBoundary } from '../lib/LazyBoundary'
import { Splitter } from '../lib/Splitter'
import { resizeSections, toggleMaximized, toggleSection, useLayout } from '../state/layout'
import { MAX_WEIGHT, MIN_WEIGHT, sectionOf } from '../state/layout-model'
import type { ProjectContext, SidebarView } from './shell'
import { useSize } from './use-width'

/**
 * The project sidebar: the registry's sidebar views as sections, in registry order. Each folds to
 * its header line (a chevron), can take the whole sidebar (the others fold away until it gives the
 * room back), and shares the height with its open neighbours through splitters (drag or arrow
 * keys). A section whose view says it is empty (`data-empty` on its root) takes only the room its
 * one line needs. The state is the window's layout (`state/layout.ts`), remembered.
 */
export function SidebarSections({ views, context }: { views: readonly SidebarView[]; context: ProjectContext }) {
  const layout = useLayout()
  const aside = useRef<HTMLElement>(null)
  const { height } = useSize(aside)
  const maximized = views.some((view) => view.id === layout.maximized) ? layout.maximized : null
  const open = views.filter((view) => (maximized ? view.id === maximized : !sectionOf(layout, view.id).collapsed))
  const openWeight = open.reduce((sum, view) => sum + sectionOf(layout, view.id).weight, 0)

  return (
    <aside ref={aside} className="sidebar" aria-label="Project">
      {views.map((view, index) => {
        const section = sectionOf(layout, view.id)
        const hidden = maximized !== null && view.id !== maximized
        const collapsed = !hidden && maximized === null && section.collapsed
        const next = open[open.indexOf(view) + 1]
        const pair = next && sectionOf(layout, next.id)
        return (
          <Fragment key={view.id}>
            <div
              className="sidebar-section"
              data-section={view.id}
              hidden={hidden}
              data-collapsed={collapsed || undefined}
              data-maximized={maximized === view.id || undefined}
              // Its share of the height, as a custom property: the stylesheet decides when the share applies.
              style={{ '--section-weight': section.weight } as CSSProperties}
            >
              <button
                type="button"
                className="sidebar-section__fold"
                aria-expanded={!collapsed}
                aria-label={`${collapsed ? 'Expand' : 'Collapse'} the ${view.title} section`}
                onClick={() => toggleSection(view.id)}
              >
                {collapsed ? '▸' : '▾'}
              </button>
              <div className="sidebar-section__body">
                <LazyBoundary what={view.title}>{view.render(context)}</LazyBoundary>
              </div>
              <button
                type="button"
                className="sidebar-section__max"
                aria-pressed={maximized === view.id}
                aria-label={`Give the ${view.title} section the whole sidebar`}
                title={maximized === view.id ? 'Give the other sections their room back' : 'Take the whole sidebar'}
                onClick={() => toggleMaximized(view.id)}
              >
                {maximized === view.id ? '⤡' : '⤢'}
              </button>
            </div>
            {next && pair && !collapsed && index < views.length - 1 && (
              <Splitter
                label={`Resize the ${view.title} and ${next.title} sections`}
                orientation="horizontal"
                value={section.weight * 100}
                min={Math.max(MIN_WEIGHT, section.weight + pair.weight - MAX_WEIGHT) * 100}
                max={Math.min(MAX_WEIGHT, section.weight + pair.weight - MIN_WEIGHT) * 100}
                step={10}
                perPixel={height > 0 ? (openWeight * 100) / height : 1}
                onChange={(value) => resizeSections(view.id, next.id, value / 100 - section.weight)}
              />
            )}
          </Fragment>
        )
      })}
    </aside>
  )
}
