/** The warning after an answer read from a journal known to be damaged (light: every reader prints it). */

/**
 * `heimdall why: warning: answered from a damaged journal (…)`: what a
 * reading command prints on stderr after its answer when the journal is
 * marked damaged, with the command that repairs it.
 */
export function damagedAnswerWarning(command: string, damage: string): string {
  return `heimdall ${command}: warning: answered from a damaged journal (${damage}); answers may be incomplete: run \`heimdall rebuild\``;
}
