// Environment variables no hook process gets: the PostgreSQL outbox's URL
// holds a database password, and with it a hook could queue jobs that other
// machines run. CHRYS_OUTBOX_URL, the default outbox.url_env, is always
// withheld; another name is withheld from the moment the outbox settings
// that name it are read (before any job is drained or queued).

const withheld = new Set<string>(['CHRYS_OUTBOX_URL']);

export function withholdEnv(name: string): void {
  withheld.add(name);
}

/** Removes the withheld variables from `env` (a copy the caller owns). */
export function dropWithheld(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  for (const name of withheld) delete env[name];
  return env;
}
