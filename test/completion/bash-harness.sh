# bash --norc --noprofile bash-harness.sh SCRIPT WORD...: loads the installed completion script
# and calls its function the way readline does (COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT);
# prints each candidate, one a line. The last WORD is the one under the cursor.
source "$1"
shift
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
_billing_complete
printf '%s\n' "${COMPREPLY[@]}"
