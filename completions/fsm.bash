# bash completion for fsm. Generated from fsm's command model by `fsm completion bash`;
# do not edit. Install: source it from ~/.bashrc, or copy it to
# ~/.local/share/bash-completion/completions/fsm.
#
# Verbs and options are listed here. Task ids, machines, states, events and commands
# come from `fsm __complete`, which reads the store when TAB is pressed.

_fsm_ask() {
  local IFS=$'\n'
  COMPREPLY=($("${COMP_WORDS[0]}" __complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" \
    2>/dev/null))
}

_fsm() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} verb="" i
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      --store|--machines|--output) ((i++)) ;;
      -*) ;;
      *) verb=${COMP_WORDS[i]}; break ;;
    esac
  done
  if [[ $prev == = || ( $prev == -* && " $(_fsm_value_options) " == *" $prev "* ) ]]
  then
    _fsm_ask; return
  fi
  if [[ $cur != -* && -z $verb ]]; then
    COMPREPLY=($(compgen -W "init validate render machines upgrade start run send signal ls show history stats errors runners purge watch tail shell bench store completion version help" -- "$cur")); return
  fi
  if [[ $cur == -* ]]; then
    case $verb in
      init) COMPREPLY=($(compgen -W "-h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      validate) COMPREPLY=($(compgen -W "-h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      render) COMPREPLY=($(compgen -W "-o --output-file --format --direction --task --counts --engine -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      machines) COMPREPLY=($(compgen -W "-h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      upgrade) COMPREPLY=($(compgen -W "--dry-run -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      start) COMPREPLY=($(compgen -W "--id --context --at --from --print-ids -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      run) COMPREPLY=($(compgen -W "--workers --until-idle --once --plugins --grace --lease --metrics --machine -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      send) COMPREPLY=($(compgen -W "--until --reason --to --after-step --machine --state --status --dry-run -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      signal) COMPREPLY=($(compgen -W "--context -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      ls) COMPREPLY=($(compgen -W "--machine --state --status --sort --reverse --limit -q --quiet -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      show) COMPREPLY=($(compgen -W "-h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      history) COMPREPLY=($(compgen -W "-h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      stats) COMPREPLY=($(compgen -W "-h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      errors) COMPREPLY=($(compgen -W "--machine --state --since --limit -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      runners) COMPREPLY=($(compgen -W "-h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      purge) COMPREPLY=($(compgen -W "--older-than --machine --status --dry-run -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      watch) COMPREPLY=($(compgen -W "--machine --state --status --interval -n --count -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      tail) COMPREPLY=($(compgen -W "--machine --state --status --interval -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      shell) COMPREPLY=($(compgen -W "-h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      bench) COMPREPLY=($(compgen -W "--tasks --workers --runners --lease --states --sends --store-only --seconds --writers --rounds --context-bytes --dir -h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      completion) COMPREPLY=($(compgen -W "-h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      version) COMPREPLY=($(compgen -W "-h --help -V --version --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      help) COMPREPLY=($(compgen -W "-h --help --store --machines --output --no-color -v --verbose" -- "$cur")); return ;;
      "") COMPREPLY=($(compgen -W "--store --machines --output --no-color -v --verbose -h --help -V --version" -- "$cur")); return ;;
    esac
  fi
  _fsm_ask
}

_fsm_value_options() {
  echo "--store --machines --output -o --output-file --format --direction --task --engine --id --context --at --from --workers --plugins --grace --lease --metrics --machine --until --reason --to --state --status --sort --limit --since --older-than --interval -n --count --tasks --runners --states --sends --seconds --writers --rounds --context-bytes --dir"
}

complete -o default -F _fsm fsm
