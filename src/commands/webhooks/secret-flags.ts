// The flags by which every webhook command is given its signing secret (data only, for the
// descriptions of src/commands/webhooks/). The secret never comes as a flag value (ps shows it
// to every user): --secret is declared, hidden, only to be refused with the ways to give it
// (src/cli/kit/secret-file.ts).

export const SECRET_FLAGS = [
  { flag: '--secret <secret>', help: '', hidden: true },
  {
    flag: '--secret-file <file>',
    help: 'signing secret: the first line of this file, readable only by you ("-": stdin); default BILLING_WEBHOOK_SECRET, else the environment\'s webhook_secret',
  },
] as const;
