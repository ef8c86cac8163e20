# zsh -f harness.zsh FPATH_DIR LINE DUMP: types LINE and TAB into a real interactive zsh
# (compinit, the installed _billing) on a pseudo-terminal; prints each candidate that completion
# offered. compinit keeps its dump in DUMP, as it does in a user's shell (~/.zcompdump): without
# one (-D) it reads every completion function of the system again, ~2 s a run.
zmodload zsh/zpty || exit 3
zpty -b z zsh -f -i
zpty -w z "fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -d ${(q)3}; PS1='%% '"
zpty -w z 'compadd () { local -a __hits; builtin compadd -O __hits "$@"; print -rl -- ${^__hits/#/<<}; builtin compadd "$@" }'
zpty -w z '__tab () { zle complete-word; print -r -- "<<>>END" }; zle -N __tab; bindkey "^I" __tab'
zpty -w z 'print DONE-SETUP'
# zpty -r gives up when nothing has come yet: wait (at most 10 s) for each line.
next_line() {
  local i
  for i in {1..200}; do zpty -r z line && return 0; sleep 0.05; done
  return 1
}
local line
while next_line; do [[ $line == DONE-SETUP* ]] && break; done
zpty -w -n z "$2"$'\t'
while next_line; do
  [[ $line == *'<<>>END'* ]] && break
  [[ $line == *'<<'* ]] && print -r -- "${${line##*<<}%%$'\r'*}"
done
zpty -d z
