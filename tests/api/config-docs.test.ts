// Every environment variable the server reads is documented: the keys of the schemas in
// backend/config.ts (`EnvSchema`) and backend/config-images.ts (`IMAGE_ENV`) must each be named in
// docs/configuration.md, written as `NAME`. A new setting without its line there fails here.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { IMAGE_ENV } from '../../backend/config-images.ts';
import { EnvSchema } from '../../backend/config.ts';

const DOC = 'docs/configuration.md';
const documentation = readFileSync(new URL(`../../${DOC}`, import.meta.url), 'utf8');

/** The variables a document names as inline code. */
const named = new Set([...documentation.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]));

test.each([
  ['backend/config.ts', Object.keys(EnvSchema.shape)],
  ['backend/config-images.ts', Object.keys(IMAGE_ENV)],
])(`every variable of %s is in ${DOC}`, (_schema, variables) => {
  expect(variables.length).toBeGreaterThan(0);
  const missing = variables.filter((name) => !named.has(name));
  expect(missing, `not in ${DOC} (write each as \`NAME\`): ${missing.join(', ')}`).toEqual([]);
});
