// Types of scripts/fixture-validator.mjs for the test that checks the generated file.
export const GENERATED: string;
export function validatorSource(): string;
