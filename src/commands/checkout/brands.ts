// The --brands flag of the checkout commands.

export const BRANDS = {
  flag: '--brands <codes>',
  help: 'card brands offered, space-separated (data-brands)',
  default: 'VISA MASTER',
} as const;
