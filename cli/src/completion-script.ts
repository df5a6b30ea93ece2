// Completion scripts for bash, zsh and fish, generated from the command tree itself, so every
// command, subcommand and flag the CLI has is completed and none that it lacks.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';

/** Every command path ('' is the top), with the words that may follow it. */
function commandTree(program: CommandUnknownOpts): Map<string, string[]> {
  const tree = new Map<string, string[]>();
  const walk = (command: CommandUnknownOpts, path: string) => {
    const subcommands = command.commands.map((c) => c.name()).filter((n) => n !== 'help');
    const flags = command.options.flatMap((o) => (o.long ? [o.long] : []));
    tree.set(path, [...subcommands, ...flags, '--help']);
    for (const sub of command.commands) {
      if (sub.name() !== 'help') walk(sub, path ? `${path} ${sub.name()}` : sub.name());
    }
  };
  walk(program, '');
  return tree;
}

function bash(tree: Map<string, string[]>): string {
  const paths = [...tree.keys()].filter((p) => p !== '');
  const cases = [...tree].map(([path, words]) => `    "${path}") words="${words.join(' ')}" ;;`);
  return [
    '# blockcatch completion for bash: eval "$(blockcatch completion bash)" in ~/.bashrc',
    '_blockcatch() {',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own ${…}, not a template
    '  local cur="${COMP_WORDS[COMP_CWORD]}" path="" next i words',
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own ${…}, not a template
    '    next="$path${path:+ }${COMP_WORDS[i]}"',
    '    case "$next" in',
    `      ${paths.map((p) => `"${p}"`).join('|')}) path="$next" ;;`,
    '    esac',
    '  done',
    '  case "$path" in',
    ...cases,
    '  esac',
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '}',
    'complete -o default -F _blockcatch blockcatch',
  ].join('\n');
}

function fish(tree: Map<string, string[]>): string {
  const lines = ['# blockcatch completion for fish: blockcatch completion fish | source'];
  for (const [path, words] of tree) {
    const parts = path.split(' ').filter(Boolean);
    const condition =
      parts.length === 0 ? '__fish_use_subcommand' : `__fish_seen_subcommand_from ${parts.at(-1)}`;
    const subcommands = words.filter((w) => !w.startsWith('-'));
    if (subcommands.length > 0) {
      lines.push(`complete -c blockcatch -f -n '${condition}' -a '${subcommands.join(' ')}'`);
    }
    for (const word of words.filter((w) => w.startsWith('--'))) {
      lines.push(`complete -c blockcatch -n '${condition}' -l ${word.slice(2)}`);
    }
  }
  return lines.join('\n');
}

/** The completion script for `shell`, from the command tree as the program declares it. */
export function completionScript(
  shell: 'bash' | 'zsh' | 'fish',
  program: CommandUnknownOpts,
): string {
  const tree = commandTree(program);
  if (shell === 'fish') return fish(tree);
  if (shell === 'bash') return bash(tree);
  // zsh runs the bash function through its bash-completion layer.
  return [
    '#compdef blockcatch',
    '# blockcatch completion for zsh: eval "$(blockcatch completion zsh)" in ~/.zshrc',
    'autoload -U +X bashcompinit && bashcompinit',
    bash(tree),
  ].join('\n');
}
