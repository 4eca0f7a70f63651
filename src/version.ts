/** The package version, read once from package.json (recorded in every manifest). */
import { readFileSync } from 'node:fs';

export const APB_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
