/** Model-facing description of Read. */
export default `
Reads a file from the local filesystem. You can access any file directly by using this tool.
Assume this tool is able to read all files on the machine. If the user provides a path to a file, assume that path is valid. It is okay to read a file that does not exist; an error will be returned.

Usage:
- The file_path parameter must be an absolute path, not a relative path
- By default, it reads up to 2000 lines starting from the beginning of the file
- You can optionally specify a line offset and limit (especially handy for long files), but it's recommended to read the whole file by not providing these parameters
- Any lines longer than 2000 characters will be truncated
- Results are returned using cat -n format, with line numbers starting at 1: each line is the line number, a tab, then the line
- This tool can read images (PNG, JPG, GIF, WEBP). When reading an image file the contents are presented visually
- This tool can only read files, not directories. To list a directory, use the Glob tool or ls via the Bash tool
- Binary files other than images cannot be read
- You can call multiple tools in a single response. It is always better to speculatively read multiple potentially useful files in parallel
- If you read a file that exists but has empty contents you will receive a warning in place of file contents
`
