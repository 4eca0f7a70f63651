/** Names of run directories: a model spec as a folder name (`openai:gpt-4o` → `openai-gpt-4o`). */

/** A model spec as a safe folder name: every run of letters other than `A-Za-z0-9._-` becomes one `-`. */
export function modelDirName(spec: string): string {
  const name = spec.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+|-+$/g, '');
  return name || 'model';
}
