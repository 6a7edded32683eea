/** One agent type as the Agent tool's description lists it. */
export interface AgentTypeLine {
  name: string
  /** When to use it. */
  description: string
  /** The tools it gets, in words ("All tools", "Read, Glob, Grep, Bash (read-only)"). */
  tools: string
}

/**
 * Model-facing description of the Agent tool, listing the agent types of this session. The list
 * is fixed for a session (built with its tools), so the request prefix stays the same bytes.
 */
export function agentToolDescription(types: readonly AgentTypeLine[], options: { fork: boolean }): string {
  const list = types.map((type) => `- ${type.name}: ${type.description.trim().replace(/\s+/g, ' ')} (Tools: ${type.tools})`).join('\n')
  const fork = options.fork
    ? `
- subagent_type "fork" starts a copy of you that has this whole conversation: give it only the directive (what to do and what to report), not the background. Its requests reuse your cache, so it is cheap to start. A fork cannot start agents itself.`
    : ''
  return `
Launches a new agent to handle a complex, multi-step task on its own. Each agent type has its own instructions and tools.

Available agent types and the tools they have access to:
${list}

When using the Agent tool, set subagent_type to pick one (default: general-purpose).

When to use it:
- Open-ended searches across a codebase where the first few tries may not find the answer
- Independent pieces of work that can go on in parallel: launch several agents in one message
- Work whose details would crowd your context when only the conclusion matters

When not to use it:
- Reading a specific file (use Read) or finding a known name (use Glob or Grep)
- Tasks of one or two steps you can do directly, or work on one or two files you already know: do it yourself

Writing the prompt:
- Brief the agent like a capable colleague who just walked into the room: it has not seen this conversation, does not know what you tried, what you ruled out, or why the task matters. Say the goal, what you already know, and what done looks like.
- Terse prompts get shallow, generic results. A few sentences of context are cheaper than a second agent.
- Never delegate understanding. Do not write "based on what you find, fix it" or "figure out what is wrong": when you know them, give the paths, the lines and the exact change you want. Use an agent to gather facts or to carry out a change you have specified, not to decide for you what the task is.

Usage notes:
- The agent does not see this conversation: its prompt must say everything it needs (goal, files, constraints) and what to report back.
- Only the agent's final message comes back to you, and the user does not see it: summarise what matters for them.
- Launch several agents at once by putting several Agent calls in one message.
- run_in_background: true returns the agent's id at once; you are told when it finishes, and TaskOutput reads its result. Do not poll it in a loop.
- An agent that runs in the foreground for more than two minutes moves to the background by itself; you get its id and are told when it finishes.
- model ("sonnet", "opus", "haiku") picks another model for the agent; by default it uses the type's model or yours.
- Tell the agent whether to write code or only research: it cannot know what you intend.${fork}
`
}
