import { memo, useMemo, useRef, useSyncExternalStore } from 'react'
import { highlighterVersion, onHighlighterChange } from './highlighter'
import { createBlockSplitter, knownFenceLanguages, renderMarkdown } from './render'
import 'highlight.js/styles/github-dark-dimmed.css'
import './markdown.css'

/** Finished blocks are rendered in groups of this many, so a long reply reconciles few children. */
const GROUP = 32

/**
 * One markdown block; memoised, so a finished block is parsed and rendered once — again only if it
 * has code whose language the highlighter learnt after it was first shown.
 */
const MarkdownBlock = memo(function MarkdownBlock({ text, highlighted }: { text: string; highlighted: number }) {
  // `highlighted` (the highlighter's version) makes this run again when languages arrive; `colour`
  // changes only if this block's own languages did. renderMarkdown reads the highlighter itself.
  const colour = highlighted > 0 ? knownFenceLanguages(text) : ''
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const html = useMemo(() => renderMarkdown(text), [text, colour])
  return <div className="markdown__block" dangerouslySetInnerHTML={{ __html: html }} />
})

/** A run of blocks; skipped entirely while its blocks stay the same strings. */
const BlockGroup = memo(
  function BlockGroup({ blocks, highlighted }: { blocks: readonly string[]; highlighted: number }) {
    return blocks.map((block, index) => <MarkdownBlock key={index} text={block} highlighted={highlighted} />)
  },
  (before, after) =>
    before.highlighted === after.highlighted &&
    before.blocks.length === after.blocks.length &&
    before.blocks.every((block, index) => block === after.blocks[index]),
)

/**
 * Model text as markdown; `renderMarkdown` escapes raw HTML and unsafe links first. While the
 * text streams, only its last block changes: the split re-scans only the unfinished tail, and
 * finished blocks sit in memoised groups, so each frame re-renders one small block.
 */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const splitter = useRef<(markdown: string) => string[]>(null)
  splitter.current ??= createBlockSplitter()
  const split = splitter.current
  const blocks = useMemo(() => split(text), [split, text])
  const highlighted = useSyncExternalStore(onHighlighterChange, highlighterVersion)
  const groups: string[][] = []
  for (let start = 0; start < blocks.length; start += GROUP) groups.push(blocks.slice(start, start + GROUP))
  return (
    <div className="markdown">
      {groups.map((group, index) => (
        <BlockGroup key={index} blocks={group} highlighted={highlighted} />
      ))}
    </div>
  )
})
