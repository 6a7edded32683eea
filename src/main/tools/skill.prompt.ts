/** The Skill tool's description for the model. */
export const SKILL_DESCRIPTION = `
Loads a skill: instructions (and sometimes scripts and reference files) for a particular kind of task.
The skills you can load are listed in the system prompt under "Skills".
- Load a skill before starting a task its description matches, then follow its instructions
- skill: the skill's name exactly as listed; args: optional text the skill receives as its arguments
- Files in the skill's folder can be read once it is loaded
- Do not load a skill that is already loaded in this conversation
`
