// The journal flags of a money move and their help (src/ops/batch/open.ts says what each does).

import { RESEND_IN_DOUBT, SETTLE_WINDOW } from '../../ops/batch/action-table.js';

/** --journal's help says what the journal of this command keeps. */
export function journalFlags(journal: string) {
  return [
    { flag: '--journal <path>', help: journal },
    {
      flag: '--amend',
      help: 'go on with the batch of this journal using the rows as they are now (rows done stay done)',
    },
    { flag: '--new-batch', help: 'move the journal aside and start a new batch, even of rows run before' },
    SETTLE_WINDOW,
    RESEND_IN_DOUBT,
    {
      flag: '--break-lock',
      help: "take the journal's lock even when it may be held from another host or container",
    },
  ] as const;
}

export const DRY_RUN = {
  flag: '--dry-run',
  help: 'print the request that would be sent, and send nothing',
} as const;

export const JOURNAL_HELP =
  '\nJournal: the journal records the rows it belongs to (their lines, ids and amounts) and each\n' +
  'move before it is sent. A re-run whose rows differ is refused (exit 2) and names them:\n' +
  '  --amend       go on with the same batch using the edited rows; rows done stay done\n' +
  '  --new-batch   move the old journal aside and start over (what it shows done is named first)\n' +
  'The same rows under a second journal (a copy of the file, another --journal) are refused\n' +
  'in a script and asked about at a terminal, unless --new-batch. One run at a time holds a\n' +
  'journal (exit 13 for the others); --break-lock takes a lock that may be held from another\n' +
  'host or container. Exit 10: the run stopped because it could not write the journal, or a\n' +
  'row is in doubt; run the same command again to check those rows and finish.\n';
